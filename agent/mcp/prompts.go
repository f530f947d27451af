package mcp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt is one prompt of a connected server (docs/mcp.md): the composer
// offers it as the command /server:prompt.
type Prompt struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// Command is how the prompt is named as a command: server:prompt.
func (p Prompt) Command() string { return p.Server + ":" + p.Name }

// listPrompts reads a server's prompts, a page at a time within the
// listing bounds; a server that declares none has none.
func (s *server) listPrompts(ctx context.Context, cs *sdk.ClientSession) ([]Prompt, error) {
	if res := cs.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Prompts == nil {
		return nil, nil
	}
	out, err := listPaged(func(cursor string) ([]Prompt, string, error) {
		page, err := cs.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		var out []Prompt
		for _, p := range page.Prompts {
			if p == nil {
				continue
			}
			pr := Prompt{Server: s.cfg.Name, Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []PromptArgument{}}
			for _, a := range p.Arguments {
				if a != nil {
					pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
				}
			}
			out = append(out, pr)
		}
		return out, page.NextCursor, nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// connected is the named server's session, when it is connected.
func (m *Manager) connected(name string) (*server, *sdk.ClientSession, error) {
	s, ok := m.byName[name]
	if !ok {
		return nil, nil, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		return nil, nil, fmt.Errorf("MCP server %s is not connected", name)
	}
	return s, s.session, nil
}

// GetPrompt gets a prompt with its arguments (prompts/get) and renders its
// messages as text, at most maxBytes: a text block as it is, anything else
// by a description; a message not the user's is marked with its role.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string, maxBytes int) (string, error) {
	s, cs, err := m.connected(server)
	if err != nil {
		return "", err
	}
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", s.cfg.Secrets.hideErr(err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		text, _ := contentText([]sdk.Content{msg.Content})
		if msg.Role != "user" {
			text = "(" + string(msg.Role) + ") " + text
		}
		parts = append(parts, text)
	}
	text, _ := bound(strings.Join(parts, "\n\n"), maxBytes)
	return text, nil
}

// Complete asks a server for the values that complete a prompt's argument
// (completion/complete), given the arguments already filled in; a server
// that declares no completions offers none.
func (m *Manager) Complete(ctx context.Context, server, prompt, arg, value string, given map[string]string) ([]string, error) {
	_, cs, err := m.connected(server)
	if err != nil {
		return nil, err
	}
	if res := cs.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Completions == nil {
		return nil, nil
	}
	res, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/prompt", Name: prompt},
		Argument: sdk.CompleteParamsArgument{Name: arg, Value: value}, Context: &sdk.CompleteContext{Arguments: given}})
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}
