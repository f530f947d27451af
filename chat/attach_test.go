package chat

import (
	"context"
	"strings"
	"testing"

	"followup/agent/mcp"
)

// TestAttachResources: a message carrying server-everything's resources
// shows a line for each under it; the model reads a text resource's text
// and a binary one's description, never its bytes; the demo agent's reply
// says what it read. A resource that cannot be read refuses the message.
func TestAttachResources(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{Tools: []string{"get-resource-links"}})
	ctx := context.Background()
	var doc mcp.Resource
	for _, r := range s.MCPStatus().Servers[0].Resources {
		if strings.HasSuffix(r.URI, "/features.md") {
			doc = r
		}
	}
	blob := mcp.Resource{Server: "everything", URI: "demo://resource/dynamic/blob/1", Name: "Blob Resource 1", MIMEType: "text/plain"}
	sent, err := s.Send(ctx, "", "What is in these?", "", doc, blob)
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(run.Reply, "I read the resource you attached, "+doc.URI+" from MCP server everything, text/markdown") ||
		!strings.Contains(run.Reply, "demo://resource/dynamic/blob/1 from MCP server everything, text/plain, is binary") {
		t.Fatalf("reply %q", run.Reply)
	}
	msgs, _, err := s.TranscriptPage(ctx, sent.ChatID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := "What is in these?\n\n📎 features.md (everything · " + doc.URI + ", text/markdown)\n📎 Blob Resource 1 (everything · demo://resource/dynamic/blob/1, text/plain)"
	if len(msgs) < 2 || msgs[0].Content != want {
		t.Fatalf("transcript %+v, want first %q", msgs, want)
	}
	for _, m := range msgs {
		if strings.Contains(m.Content, "base64 blob") || strings.HasPrefix(m.Content, "[attached") {
			t.Fatalf("the transcript shows what only the model reads: %q", m.Content)
		}
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE chat_id = ? AND visible = 0 AND for_model = 1 AND role = 'user'`, sent.ChatID); n != 2 {
		t.Fatalf("%d attachments for the model, want 2", n)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE chat_id = ? AND content LIKE '%[binary content demo://resource/dynamic/blob/1, text/plain, % bytes: not included]'
		AND content NOT LIKE '%base64 blob%'`, sent.ChatID); n != 1 {
		t.Fatal("the model does not read the binary resource's description alone")
	}

	_, err = s.Send(ctx, sent.ChatID, "and this", "", mcp.Resource{Server: "everything", URI: "demo://nothing/here"})
	fxCode(t, err, CodeInvalidArgument)

	// A tool's resource links are kept with its call, to be attached.
	fxAsk(t, s, sent.ChatID, `call everything.get-resource-links {"count": 2}`)
	steps := fxSteps(t, s, sent.ChatID)
	if len(steps) != 1 || len(steps[0].Links) != 2 || steps[0].Links[1].URI != "demo://resource/dynamic/text/2" {
		t.Fatalf("steps %+v", steps)
	}
	sent, err = s.Send(ctx, sent.ChatID, "", "", steps[0].Links[1])
	if err != nil {
		t.Fatal(err)
	}
	if run, err = s.Drive(ctx, sent.RunID); err != nil || !strings.Contains(run.Reply, "“Resource 2: This is a plaintext resource") {
		t.Fatalf("reply %q %v", run.Reply, err)
	}
}
