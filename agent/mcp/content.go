package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultOf turns the SDK's result into a Result, bounded for the model.
func resultOf(s *server, req CallRequest, res *sdk.CallToolResult) (Result, error) {
	if res.NeedsInput() {
		ir, err := inputRequired(s, req, res)
		if err != nil {
			return Result{}, err
		}
		return Result{InputRequired: ir}, nil
	}
	limit := req.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	out := Result{IsError: res.IsError}
	for _, c := range res.Content {
		if l, ok := c.(*sdk.ResourceLink); ok && len(out.Links) < maxLinks {
			out.Links = append(out.Links, linkOf(s.cfg.Name, l))
		}
	}
	text, images := contentText(res.Content)
	out.Text, out.Truncated = bound(text, limit)
	out.Images = images
	if res.StructuredContent != nil {
		raw, err := json.Marshal(res.StructuredContent)
		switch {
		case err != nil:
			out.Truncated = true
		case len(out.Text)+len(raw) <= limit:
			out.Structured = raw
		default:
			out.Truncated = true // JSON cannot be cut; the text stands for it
		}
	}
	return out, nil
}

// inputRequired converts a server's input requests, refusing kinds followup does not
// offer (sampling) so the call fails clearly instead of waiting for nothing.
func inputRequired(s *server, req CallRequest, res *sdk.CallToolResult) (*InputRequired, error) {
	ir := &InputRequired{Requests: map[string]Elicitation{}, RequestState: res.RequestState}
	for id, r := range res.InputRequests {
		switch p := r.(type) {
		case *sdk.ElicitParams:
			e, err := s.elicitation(p)
			if err != nil {
				return nil, fmt.Errorf("input request %q: %w", id, err)
			}
			e.Tool, e.Origin = req.Tool, req.Origin
			ir.Requests[id] = e
		case *sdk.ListRootsParams:
			ir.Roots = append(ir.Roots, id)
		default:
			return nil, fmt.Errorf("MCP server %s asked for %T, which followup does not offer", s.cfg.Name, r)
		}
	}
	return ir, nil
}

// Image is an image a tool returned, for a model that accepts images.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"` // base64 in JSON
}

// Images go to a model when they are of a type both providers take, at most
// maxImages of them and maxImageBytes together: the model is sent a chat's
// whole history on every call, so each image is sent many times.
const (
	maxImages     = 4
	maxImageBytes = 1 << 20
)

var modelImageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// contentText renders a result's content blocks as text for the model: text as it is,
// other blocks as a one-line description (their bytes are not for a text model); the
// images a model may see come along too.
func contentText(blocks []sdk.Content) (string, []Image) {
	var parts []string
	var images []Image
	size := 0
	for _, c := range blocks {
		switch b := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, b.Text)
		case *sdk.ImageContent:
			desc := fmt.Sprintf("[image %s, %d bytes]", b.MIMEType, len(b.Data))
			if slices.Contains(modelImageTypes, b.MIMEType) && len(images) < maxImages && size+len(b.Data) <= maxImageBytes {
				images = append(images, Image{MIMEType: b.MIMEType, Data: b.Data})
				size += len(b.Data)
			} else {
				desc = fmt.Sprintf("[image %s, %d bytes, described only: a model is sent PNG, JPEG, GIF or WebP, %d images and %d KiB at most]",
					b.MIMEType, len(b.Data), maxImages, maxImageBytes>>10)
			}
			parts = append(parts, desc)
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", b.MIMEType, len(b.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource link %s %s]", b.URI, b.Name))
		case *sdk.EmbeddedResource:
			switch {
			case b.Resource == nil:
			case b.Resource.Text != "":
				parts = append(parts, b.Resource.Text)
			default:
				parts = append(parts, fmt.Sprintf("[resource %s %s, %d bytes]", b.Resource.URI, b.Resource.MIMEType, len(b.Resource.Blob)))
			}
		default:
			parts = append(parts, fmt.Sprintf("[%T content]", c))
		}
	}
	return strings.Join(parts, "\n"), images
}

// bound cuts s to at most limit bytes on a character boundary, saying so at the end.
func bound(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	note := fmt.Sprintf("\n… (cut at %d of %d bytes)", limit, len(s))
	if len(note) >= limit {
		note = ""
	}
	cut := limit - len(note)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note, true
}

// Prepare is the content a form's accept sends: content checked against the requested
// schema, exactly as confirmed. followup answers a classic elicitation itself (not
// through the SDK, which would fill in the schema's defaults for fields left out) and
// Retry sends the same for an input_required one, so the host records exactly what the
// server receives: a field the user cleared is absent even when its schema has a default
// (defaults are the form's suggestions, which the user confirms by passing the field).
func Prepare(schema json.RawMessage, content map[string]any) (map[string]any, error) {
	norm := map[string]any{}
	if raw, err := json.Marshal(content); err != nil || json.Unmarshal(raw, &norm) != nil {
		return nil, fmt.Errorf("the reply content is not a JSON object: %v", err)
	}
	if norm == nil {
		norm = map[string]any{} // null: nothing given
	}
	if err := checkContent(schema, norm); err != nil {
		return nil, err
	}
	return norm, nil
}

// checkContent validates accepted form content against the requested schema. It
// adds nothing: no default reaches a server unless the user confirmed it.
func checkContent(schema json.RawMessage, content map[string]any) error {
	if len(schema) == 0 {
		return nil
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(schema, &js); err != nil {
		return fmt.Errorf("requested schema: %w", err)
	}
	rs, err := js.Resolve(nil)
	if err != nil {
		return fmt.Errorf("requested schema: %w", err)
	}
	if err := rs.Validate(content); err != nil {
		return fmt.Errorf("the reply does not match the requested schema: %w", err)
	}
	return nil
}
