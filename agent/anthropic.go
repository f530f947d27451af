package agent

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
)

// Anthropic is a Provider for the Anthropic Messages API.
type Anthropic struct {
	client anthropic.Client
	model  string
	key    string // kept only to scrub it from error text
}

// NewAnthropic returns a provider for the API at baseURL (empty means
// DefaultAnthropicBaseURL). An empty key sends no credential (a proxy).
func NewAnthropic(baseURL, key, model string) *Anthropic {
	opts := []option.RequestOption{
		// Config is the only source: no env, no profile files on disk.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cmp.Or(baseURL, DefaultAnthropicBaseURL)),
		// WithRetry retries, honouring Retry-After and the streamed text;
		// the SDK's own silent retries would multiply with ours.
		option.WithMaxRetries(0),
		// No client timeout: ctx ends every call.
		option.WithHTTPClient(&http.Client{}),
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	model = cmp.Or(model, DefaultAnthropicModel)
	return &Anthropic{client: anthropic.NewClient(opts...), model: model, key: key}
}

// Name implements Provider.
func (p *Anthropic) Name() string { return "anthropic" }

// Complete implements Provider. It streams when req.OnText is set.
func (p *Anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	params := p.params(req)
	if req.OnText == nil {
		msg, err := p.client.Messages.New(ctx, params)
		if err != nil {
			return Response{}, p.fail(ctx, err)
		}
		return Response{Message: fromAnthropic(msg), Truncated: msg.StopReason == anthropic.StopReasonMaxTokens}, nil
	}
	stream := p.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return Response{}, &ProviderError{Message: "malformed stream: " + err.Error()}
		}
		switch {
		case ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta" && ev.Delta.Text != "":
			req.OnText(ev.Delta.Text)
		case ev.Type == "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		return Response{}, p.fail(ctx, err)
	}
	if ctx.Err() != nil {
		return Response{}, ctx.Err()
	}
	if !stopped {
		// The body ended cleanly but early: a proxy or server gave up.
		return Response{}, &ProviderError{Message: "the stream ended before the reply was complete", Transient: true}
	}
	return Response{Message: fromAnthropic(&msg)}, nil
}

// params converts our history. Tool results become tool_result blocks in a
// user turn (their images as image blocks in them), and consecutive turns of one role are merged: the API wants
// roles to alternate, and all results of one assistant turn in one message.
func (p *Anthropic) params(req Request) anthropic.MessageNewParams {
	out := anthropic.MessageNewParams{Model: cmp.Or(req.Model, p.model), MaxTokens: int64(cmp.Or(req.MaxTokens, MaxReplyTokens))}
	if req.System != "" {
		out.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	lastRole := ""
	for _, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		role := RoleUser
		switch m.Role {
		case RoleAssistant:
			role = RoleAssistant
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, validArgs(tc.Arguments), tc.Name))
			}
		case RoleTool:
			res := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
			if m.Content != "" {
				res.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Content}}}
			}
			for _, im := range m.Images {
				res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
					Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
						Data: base64.StdEncoding.EncodeToString(im.Data), MediaType: anthropic.Base64ImageSourceMediaType(im.MIMEType)}}}})
			}
			blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &res})
		default:
			if m.Content != "" { // the API refuses empty text blocks
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
		}
		if len(blocks) == 0 {
			continue
		}
		n := len(out.Messages)
		switch {
		case role == lastRole && role == RoleAssistant:
			out.Messages[n-1].OfAssistant.Content = append(out.Messages[n-1].OfAssistant.Content, blocks...)
		case role == lastRole:
			out.Messages[n-1].OfUser.Content = append(out.Messages[n-1].OfUser.Content, blocks...)
		case role == RoleAssistant:
			out.Messages = append(out.Messages, anthropic.NewAssistantMessage(blocks...))
		default:
			out.Messages = append(out.Messages, anthropic.NewUserMessage(blocks...))
		}
		lastRole = role
	}
	for _, t := range req.Tools {
		// The schema goes as the tool gave it: the SDK's struct would re-encode it.
		tool := anthropic.ToolParam{Name: t.Name, InputSchema: param.Override[anthropic.ToolInputSchemaParam](schemaOrEmpty(t.Parameters))}
		if t.Description != "" {
			tool.Description = anthropic.String(t.Description)
		}
		out.Tools = append(out.Tools, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out
}

// validArgs returns arguments the SDK can send: a tool_use input must be a
// JSON object, and a model may once have produced broken JSON.
func validArgs(a json.RawMessage) json.RawMessage {
	if !json.Valid(a) || !strings.HasPrefix(strings.TrimSpace(string(a)), "{") {
		return json.RawMessage(`{}`)
	}
	return a
}

func fromAnthropic(msg *anthropic.Message) Message {
	out := Message{Role: RoleAssistant}
	var text strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := append(json.RawMessage(nil), b.Input...)
			out.ToolCalls = append(out.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: json.RawMessage(argsOrEmpty(args))})
		}
	}
	out.Content = text.String()
	return out
}

// fail maps an SDK error to ctx.Err() or a ProviderError.
func (p *Anthropic) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return transportError(ctx, err, p.key)
	}
	msg := apiErr.Message
	if msg == "" {
		msg = bodyMessage([]byte(apiErr.RawJSON()))
	}
	if apiErr.StatusCode < 400 {
		// An error event inside a 200 stream: its type says whether
		// waiting helps.
		switch apiErr.Type() {
		case "overloaded_error", "api_error", "rate_limit_error", "timeout_error":
			return &ProviderError{Message: redact(msg, p.key), Transient: true}
		}
		return &ProviderError{Message: redact(msg, p.key)}
	}
	var wait time.Duration
	if apiErr.Response != nil {
		wait = retryAfter(apiErr.Response.Header, time.Now())
	}
	return statusError(apiErr.StatusCode, msg, p.key, wait)
}
