package chat

import (
	"bytes"
	"testing"

	"followup/agent"
	"followup/agent/mcp"
)

// A recorded tool result gives the model its text without the images'
// bytes, and the images beside it.
func TestResultImagesRoundTrip(t *testing.T) {
	png := mcp.Image{MIMEType: "image/png", Data: []byte{1, 2, 3}}
	text, images := resultImages(string(toolResult("mcp__e__img", mcp.Result{Text: "[image image/png, 3 bytes]", Images: []mcp.Image{png}})))
	if text != `{"status":"ok","text":"[image image/png, 3 bytes]","tool":"mcp__e__img"}` || len(images) != 1 ||
		images[0].MIMEType != "image/png" || !bytes.Equal(images[0].Data, png.Data) {
		t.Fatalf("text %s, images %+v", text, images)
	}
	if plain := string(toolResult("t", mcp.Result{Text: `says "images"`})); func() bool { s, im := resultImages(plain); return s != plain || im != nil }() {
		t.Fatalf("a result without images changed: %s", plain)
	}
}

// Only the latest results' images go to the model, within the bounds.
func TestRecentImagesBounded(t *testing.T) {
	big := mcp.Image{MIMEType: "image/png", Data: make([]byte, historyImageBytes/2)}
	small := mcp.Image{MIMEType: "image/png", Data: []byte{1}}
	h := []agent.Message{
		{Role: agent.RoleTool, Images: []mcp.Image{small}},
		{Role: agent.RoleTool, Images: []mcp.Image{big, big}},
		{Role: agent.RoleTool, Images: []mcp.Image{big}},
	}
	h = recentImages(h)
	if len(h[2].Images) != 1 || len(h[1].Images) != 1 || len(h[0].Images) != 0 {
		t.Fatalf("kept %d, %d, %d images", len(h[0].Images), len(h[1].Images), len(h[2].Images))
	}
	many := make([]mcp.Image, historyImages+3)
	for i := range many {
		many[i] = small
	}
	if h = recentImages([]agent.Message{{Role: agent.RoleTool, Images: many}}); len(h[0].Images) != historyImages {
		t.Fatalf("kept %d of many", len(h[0].Images))
	}
}
