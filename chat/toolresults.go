package chat

import (
	"encoding/json"
	"strings"

	"followup/agent"
	"followup/agent/mcp"
)

// What the model receives for an MCP tool call (docs/mcp.md). Every result
// names the tool and has a status: ok or tool_error (the tool's own
// result: its text, and its structured content when it fits the reply-size
// policy), tool_denied, tool_interrupted, tool_failed or tool_declined. A
// tool's error is the model's to handle, never a failed run.

// Statuses of a tool result.
const (
	StatusOK          = "ok"
	StatusToolError   = "tool_error"
	StatusDenied      = "tool_denied"
	StatusInterrupted = "tool_interrupted"
	StatusFailed      = "tool_failed"
	StatusDeclined    = "tool_declined"
)

func toolResult(name string, res mcp.Result) json.RawMessage {
	m := map[string]any{"status": StatusOK, "tool": name, "text": res.Text}
	if res.IsError {
		m["status"] = StatusToolError
	}
	if len(res.Structured) > 0 {
		m["structuredContent"] = res.Structured
	}
	if res.Truncated {
		m["truncated"] = true
	}
	if len(res.Links) > 0 {
		m["resourceLinks"] = res.Links
	}
	if len(res.Images) > 0 {
		m["images"] = res.Images // for the model; the text describes them too
	}
	return json.RawMessage(mustJSON(m))
}

// resultImages splits a recorded tool result into what a model reads as text
// and the images it carries, which a provider that takes images sends as
// images.
func resultImages(content string) (string, []mcp.Image) {
	if !strings.Contains(content, `"images"`) {
		return content, nil
	}
	var m map[string]json.RawMessage
	var images []mcp.Image
	if json.Unmarshal([]byte(content), &m) != nil || json.Unmarshal(m["images"], &images) != nil || len(images) == 0 {
		return content, nil
	}
	delete(m, "images")
	return mustJSON(m), images
}

// toolMessage is a result with no result of the tool's: status, and why.
func toolMessage(status, name, why string) json.RawMessage {
	return mustRaw(map[string]any{"status": status, "tool": name, "message": clip(why, maxToolMessage)})
}

func declinedURL(name, action string) json.RawMessage {
	msg := "the user declined to open the link the server needed first; the call was not made"
	if action == mcp.ActionCancel {
		msg = "the link the server needed first was not opened (cancelled); the call was not made"
	}
	return toolMessage(StatusDeclined, name, msg)
}

// maxToolMessage bounds, in characters, an error text that goes back to
// the model.
const maxToolMessage = 2000

// historyImages bounds the images a model call carries: each call sends
// the whole history, and the APIs refuse a request past some tens of
// megabytes or a hundred images.
const (
	historyImages     = 16
	historyImageBytes = 4 << 20
)

// recentImages keeps the images of the latest tool results, up to the
// bounds; older results keep only their text, which describes them.
func recentImages(h []agent.Message) []agent.Message {
	n, size := 0, 0
	for i := len(h) - 1; i >= 0; i-- {
		for j, im := range h[i].Images {
			if n++; n > historyImages || size+len(im.Data) > historyImageBytes {
				h[i].Images = h[i].Images[:j]
				break
			}
			size += len(im.Data)
		}
	}
	return h
}
