package mcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sampling is a server's sampling/createMessage during a tool call: what it
// asks followup's model (docs/mcp.md "Sampling"). Everything in it is the
// server's (untrusted).
type Sampling struct {
	Server       string            `json:"server"`
	Tool         string            `json:"tool,omitempty"`
	Origin       Origin            `json:"origin"`
	SystemPrompt string            `json:"systemPrompt,omitempty"`
	Messages     []SamplingMessage `json:"messages"`
	// MaxTokens is the server's cap on the reply.
	MaxTokens int64 `json:"maxTokens"`
}

// SamplingMessage is one message of a Sampling, as text: content that is
// not text is named, not passed on.
type SamplingMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// Sampled is the model's reply to a Sampling.
type Sampled struct {
	Model      string `json:"model"`
	Text       string `json:"text"`
	StopReason string `json:"stopReason"`
}

// Sampler puts a server's sampling request before the user and, once
// allowed, through followup's model (chat implements it). Like Elicit,
// Sample blocks until the user decides; ctx ends when the server withdraws
// the request or its connection ends. It returns ErrSamplingRejected only
// when a person denied the request.
type Sampler interface {
	Sample(ctx context.Context, q Sampling) (Sampled, error)
}

// ErrSamplingRejected is what the server receives when the user denies its
// request (the spec's "user rejected", code -1).
var ErrSamplingRejected error = &jsonrpc.Error{Code: -1, Message: "User rejected sampling request"}

// sampleHandler answers a server's sampling/createMessage through the
// Sampler.
func (s *server) sampleHandler(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	p := req.Params
	if p == nil {
		return nil, InvalidParams("sampling/createMessage has no params")
	}
	q := Sampling{Server: s.cfg.Name, SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		text, _ := contentText([]sdk.Content{m.Content}) // an image or audio is described
		q.Messages = append(q.Messages, SamplingMessage{Role: string(m.Role), Text: text})
	}
	ctx, done, err := s.during(ctx, req.Session, &q.Tool, &q.Origin)
	if err != nil {
		return nil, err
	}
	defer done()
	r, err := s.m.opts.Sampler.Sample(ctx, q)
	if err != nil {
		return nil, err
	}
	return &sdk.CreateMessageResult{Role: "assistant", Content: &sdk.TextContent{Text: r.Text}, Model: r.Model,
		StopReason: r.StopReason}, nil
}
