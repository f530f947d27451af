package agent

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// OpenAI is a Provider for any OpenAI-compatible chat-completions server:
// OpenAI itself, Ollama (http://localhost:11434/v1), LM Studio, vLLM.
type OpenAI struct {
	client *openai.Client
	model  string
	key    string // kept only to scrub it from error text
}

// NewOpenAI returns a provider for the server at baseURL (empty means
// DefaultOpenAIBaseURL). key may be empty for local servers.
func NewOpenAI(baseURL, key, model string) *OpenAI {
	cfg := openai.DefaultConfig(key)
	if baseURL != "" {
		cfg.BaseURL = strings.TrimRight(baseURL, "/")
	}
	// The library never retries by itself; WithRetry does. No client
	// timeout: a local model may take minutes, and ctx ends every call.
	cfg.HTTPClient = &http.Client{Transport: hintTransport{base: http.DefaultTransport}}
	model = cmp.Or(model, DefaultOpenAIModel)
	return &OpenAI{client: openai.NewClientWithConfig(cfg), model: model, key: key}
}

// Name implements Provider.
func (p *OpenAI) Name() string { return "openai" }

// Complete implements Provider. It streams when req.OnText is set.
func (p *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	body := p.request(req)
	hint := &responseHint{}
	hctx := context.WithValue(ctx, hintKey{}, hint)
	if req.OnText == nil {
		resp, err := p.client.CreateChatCompletion(hctx, body)
		if err != nil {
			return Response{}, p.fail(ctx, err, hint)
		}
		if len(resp.Choices) == 0 {
			return Response{}, &ProviderError{Message: "the server returned no choices"}
		}
		c := resp.Choices[0]
		return Response{Message: fromOpenAI(c.Message), Truncated: c.FinishReason == openai.FinishReasonLength}, nil
	}
	stream, err := p.client.CreateChatCompletionStream(hctx, body)
	if err != nil {
		return Response{}, p.fail(ctx, err, hint)
	}
	defer stream.Close()
	var acc openAIStream
	for {
		chunk, err := stream.Recv()
		// A clean io.EOF is the end ([DONE] or a closed body); a connection
		// dropped mid-body surfaces as io.ErrUnexpectedEOF or a reset.
		if err == io.EOF {
			return Response{Message: acc.message()}, nil
		}
		if err != nil {
			return Response{}, p.fail(ctx, err, hint)
		}
		if len(chunk.Choices) > 0 {
			acc.add(chunk.Choices[0].Delta, req.OnText)
		}
	}
}

// request converts our history into a chat-completions request.
func (p *OpenAI) request(req Request) openai.ChatCompletionRequest {
	out := openai.ChatCompletionRequest{Model: cmp.Or(req.Model, p.model), MaxTokens: req.MaxTokens}
	if req.System != "" {
		out.Messages = append(out.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: req.System})
	}
	// A tool message holds text only: the images of a turn's tool results
	// follow them, in a user message.
	var images []openai.ChatMessagePart
	flush := func() {
		if len(images) > 0 {
			out.Messages = append(out.Messages, openai.ChatCompletionMessage{Role: RoleUser, MultiContent: images})
			images = nil
		}
	}
	for _, m := range req.Messages {
		if m.Role != RoleTool && m.Content == "" && len(m.ToolCalls) == 0 {
			continue // servers refuse a message with neither text nor calls
		}
		if m.Role == RoleTool && len(m.Images) > 0 {
			images = append(images, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText,
				Text: "The images of tool call " + m.ToolCallID + " (" + m.ToolName + "):"})
			for _, im := range m.Images {
				images = append(images, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{
					URL: "data:" + im.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)}})
			}
		}
		if m.Role != RoleTool {
			flush()
		}
		msg := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
		switch m.Role {
		case RoleTool:
			msg.ToolCallID = m.ToolCallID
		case RoleAssistant:
			for _, tc := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{
					ID: tc.ID, Type: openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: tc.Name, Arguments: argsOrEmpty(tc.Arguments)},
				})
			}
		}
		out.Messages = append(out.Messages, msg)
	}
	flush()
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: schemaOrEmpty(t.Parameters),
		}})
	}
	return out
}

// fail maps a library error to ctx.Err() or a ProviderError.
func (p *OpenAI) fail(ctx context.Context, err error, hint *responseHint) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	// RequestError first: it wraps an empty APIError when the body was not
	// OpenAI's shape (Ollama's {"error":"…"}), and only it has the body.
	switch {
	case errors.As(err, &reqErr) && reqErr.HTTPStatusCode >= 400:
		return statusError(reqErr.HTTPStatusCode, bodyMessage(reqErr.Body), p.key, hint.retryAfter)
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode >= 400:
		return statusError(apiErr.HTTPStatusCode, apiErr.Message, p.key, hint.retryAfter)
	case errors.As(err, &apiErr):
		// An error event inside a 200 stream: only a bad request is final.
		return &ProviderError{Message: redact(apiErr.Message, p.key), Transient: apiErr.Type != "invalid_request_error"}
	}
	return transportError(ctx, err, p.key)
}

func fromOpenAI(m openai.ChatCompletionMessage) Message {
	out := Message{Role: RoleAssistant, Content: m.Content}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(argsOrEmpty(json.RawMessage(tc.Function.Arguments)))})
	}
	return out
}

// openAIStream assembles a streamed turn. Tool calls arrive in fragments
// keyed by index: the first carries id and name, later ones more argument
// text.
type openAIStream struct {
	text  strings.Builder
	calls []ToolCall  // Arguments grow fragment by fragment
	index map[int]int // stream index → position in calls
}

func (s *openAIStream) add(d openai.ChatCompletionStreamChoiceDelta, onText func(string)) {
	if d.Content != "" {
		s.text.WriteString(d.Content)
		onText(d.Content)
	}
	for _, tc := range d.ToolCalls {
		pos := s.position(tc)
		if tc.ID != "" {
			s.calls[pos].ID = tc.ID
		}
		if tc.Function.Name != "" && s.calls[pos].Name == "" {
			s.calls[pos].Name = tc.Function.Name
		}
		s.calls[pos].Arguments = append(s.calls[pos].Arguments, tc.Function.Arguments...)
	}
}

// position finds the call a fragment belongs to, opening a new one when
// needed. Some servers omit the index: then a new id starts a call and a
// fragment without id continues the last one.
func (s *openAIStream) position(tc openai.ToolCall) int {
	if tc.Index != nil {
		if pos, ok := s.index[*tc.Index]; ok {
			return pos
		}
		if s.index == nil {
			s.index = map[int]int{}
		}
		s.index[*tc.Index] = len(s.calls)
		return s.open()
	}
	for i, c := range s.calls {
		if tc.ID != "" && c.ID == tc.ID {
			return i
		}
	}
	if tc.ID == "" && len(s.calls) > 0 {
		return len(s.calls) - 1
	}
	return s.open()
}

func (s *openAIStream) open() int {
	s.calls = append(s.calls, ToolCall{})
	return len(s.calls) - 1
}

func (s *openAIStream) message() Message {
	out := Message{Role: RoleAssistant, Content: s.text.String()}
	for _, c := range s.calls {
		c.Arguments = json.RawMessage(argsOrEmpty(c.Arguments))
		out.ToolCalls = append(out.ToolCalls, c)
	}
	return out
}

// argsOrEmpty returns tool arguments as JSON text; servers send "" for a
// call without arguments, which is not JSON.
func argsOrEmpty(a json.RawMessage) string {
	if strings.TrimSpace(string(a)) == "" {
		return "{}"
	}
	return string(a)
}

func schemaOrEmpty(s json.RawMessage) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

// go-openai's errors do not carry response headers, so a transport hook
// records Retry-After into a holder the call put in its context.
type hintKey struct{}

type responseHint struct{ retryAfter time.Duration }

type hintTransport struct{ base http.RoundTripper }

func (t hintTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if h, ok := r.Context().Value(hintKey{}).(*responseHint); ok && err == nil && resp.StatusCode >= 400 {
		h.retryAfter = retryAfter(resp.Header, time.Now())
	}
	return resp, err
}
