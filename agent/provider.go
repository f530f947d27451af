// Package agent is followup's model loop: providers (the offline demo agent,
// OpenAI-compatible servers, Anthropic), the tool registry, and the run
// state machine that checkpoints every step through the chat host before it
// acts on it. The input_* tools are thin adapters over the host; policy
// belongs to chat.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"followup/agent/mcp"
)

// Roles of a history message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of a run's model history.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	ToolName   string     `json:"toolName,omitempty"`
	// Images are a tool result's images (Content describes them too), for a
	// provider that takes images.
	Images []mcp.Image `json:"images,omitempty"`
}

// ToolCall is the model asking to run one tool.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is one model call.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the reply (0: MaxReplyTokens where the API needs a
	// cap). Only an MCP server's sampling request sets it.
	MaxTokens int
	// OnText, when set, receives streamed assistant text as it arrives.
	OnText func(delta string)
	// OnReset, when set, is called when the text streamed so far is void
	// because the call starts over (WithRetry after a dropped stream): the
	// consumer discards its preview. Without it, a call that has streamed
	// text is not retried, so text is never shown twice.
	OnReset func()
}

// MaxReplyTokens is followup's own cap on one reply. The Anthropic API
// requires a cap; a turn here is a short reply or a tool call, far below it.
const MaxReplyTokens = 4096

// Response is the model's turn.
type Response struct {
	Message Message
	// Truncated: the reply stopped at the cap (MaxTokens); said only by a
	// call that does not stream.
	Truncated bool
}

// Provider is a model backend: the offline demo agent, an OpenAI-compatible
// server or Anthropic.
type Provider interface {
	Name() string
	Complete(ctx context.Context, req Request) (Response, error)
}

// ProviderError is a failure reported by a provider. Transient ones (429,
// 5xx, dropped connections) may be retried; the rest end the run.
type ProviderError struct {
	Status    int
	Message   string
	Transient bool
	// RetryAfter is the wait the server asked for (Retry-After), if any.
	RetryAfter time.Duration
}

func (e *ProviderError) Error() string { return e.Message }

// IsTransient reports whether err is worth retrying.
func IsTransient(err error) bool {
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe.Transient
	}
	return false
}
