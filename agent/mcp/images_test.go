package mcp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A result's images go to the model when they are of a type providers take,
// four and 1 MiB at most; the others are described only.
func TestResultImagesBounded(t *testing.T) {
	img := func(mime string, n int) sdk.Content { return &sdk.ImageContent{MIMEType: mime, Data: make([]byte, n)} }
	text, images := contentText([]sdk.Content{&sdk.TextContent{Text: "here"}, img("image/png", 10), img("image/svg+xml", 10),
		img("image/jpeg", maxImageBytes), img("image/webp", 20), img("image/gif", 1), img("image/png", 1), img("image/png", 1)})
	var got []string
	for _, im := range images {
		got = append(got, fmt.Sprintf("%s %d", im.MIMEType, len(im.Data)))
	}
	if want := []string{"image/png 10", "image/webp 20", "image/gif 1", "image/png 1"}; !slices.Equal(got, want) {
		t.Errorf("images %q, want %q", got, want)
	}
	if !strings.Contains(text, "[image image/png, 10 bytes]\n[image image/svg+xml, 10 bytes, described only") ||
		strings.Count(text, "described only") != 3 {
		t.Errorf("text %q", text)
	}
}
