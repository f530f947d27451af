package mcp

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestEverythingResources: server-everything's resources are listed with
// their type; a text one reads as its text, cut at the bound with a note;
// a binary one as a line naming its type and size; a tool's resource
// links come with its result; a resource the server adds (a gzip made by
// a tool) is listed once the server says its list changed.
func TestEverythingResources(t *testing.T) {
	m := everything(t, TypeStdio, &scriptedElicitor{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rs := m.Status().Servers[0].Resources
	var doc Resource
	for _, r := range rs {
		if strings.HasSuffix(r.URI, "/features.md") {
			doc = r
		}
	}
	if doc.Name != "features.md" || doc.MIMEType != "text/markdown" || doc.Server != "everything" {
		t.Fatalf("features.md not listed as markdown: %+v", rs)
	}
	text, mime, cut, err := m.ReadResource(ctx, "everything", doc.URI, 65536)
	if err != nil || cut || !strings.Contains(text, "#") || mime != "text/markdown" {
		t.Fatalf("read %s: %q %s cut=%t %v", doc.URI, text, mime, cut, err)
	}
	short, _, cut, err := m.ReadResource(ctx, "everything", doc.URI, 200)
	if err != nil || !cut || len(short) > 200 || !strings.Contains(short, "(cut at 200 of") {
		t.Fatalf("bounded read: %q cut=%t %v", short, cut, err)
	}
	bin, _, _, err := m.ReadResource(ctx, "everything", "demo://resource/dynamic/blob/1", 65536)
	if err != nil || !strings.HasPrefix(bin, "[binary content demo://resource/dynamic/blob/1, text/plain, ") || strings.Contains(bin, "This is a base64 blob") {
		t.Fatalf("binary read: %q %v", bin, err)
	}
	if _, _, _, err := m.ReadResource(ctx, "everything", "demo://nothing/here", 100); err == nil {
		t.Fatal("reading an unknown resource did not fail")
	}

	res := callEverything(t, m, "get-resource-links", `{"count":2}`)
	if len(res.Links) != 2 || res.Links[1].URI != "demo://resource/dynamic/text/2" || res.Links[1].Server != "everything" {
		t.Fatalf("links %+v", res.Links)
	}

	callEverything(t, m, "gzip-file-as-resource", `{"name":"hi.gz","data":"data:text/plain;base64,aGVsbG8=","outputType":"resourceLink"}`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var gz *Resource
		for _, r := range m.Status().Servers[0].Resources {
			if r.URI == "demo://resource/session/hi.gz" {
				gz = &r
			}
		}
		if gz != nil {
			if gz.MIMEType != "application/gzip" {
				t.Fatalf("gzip listed as %+v", gz)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new resource was not listed: %+v", m.Status().Servers[0].Resources)
		}
		time.Sleep(50 * time.Millisecond)
	}
	gz, _, _, err := m.ReadResource(ctx, "everything", "demo://resource/session/hi.gz", 65536)
	if err != nil || !strings.Contains(gz, "application/gzip") {
		t.Fatalf("gzip read: %q %v", gz, err)
	}
}
