package chat

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"followup/agent/mcp"
	"followup/forms"
)

// An MCP server's prompts (docs/mcp.md) are commands: /server:prompt in the
// composer, `followup mcp prompt` headless. A prompt's arguments are asked
// as a form; its messages go to the agent as the user's next message,
// headed by the prompt used, so the transcript says where they came from.

// MCPPrompts lists the connected servers' prompts, by server then name.
func (s *Service) MCPPrompts() []mcp.Prompt {
	var out []mcp.Prompt
	for _, srv := range s.MCPStatus().Servers {
		out = append(out, srv.Prompts...)
	}
	return out
}

// MCPPrompt finds a connected server's prompt by its command, server:prompt
// (a leading / is allowed).
func (s *Service) MCPPrompt(command string) (mcp.Prompt, error) {
	command = strings.TrimPrefix(command, "/")
	for _, p := range s.MCPPrompts() {
		if p.Command() == command {
			return p, nil
		}
	}
	return mcp.Prompt{}, errorf(CodeNotFound, "no connected MCP server offers the prompt %q (`followup mcp prompts` lists them)", command)
}

// PromptForm is the form asking a prompt's arguments: a text field each,
// required as declared, with the argument's description. It is made as an
// MCP server's schema is, so any argument name can be asked; names maps the
// fields whose names differ back to the arguments'.
func PromptForm(p mcp.Prompt) (def forms.Definition, names map[string]string, err error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, a := range p.Arguments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(mustJSON(a.Name))
		b.WriteByte(':')
		b.WriteString(mustJSON(map[string]string{"type": "string", "title": cmp.Or(a.Title, a.Name), "description": a.Description}))
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b.WriteString(`},"required":`)
	b.WriteString(mustJSON(append([]string{}, required...)))
	b.WriteByte('}')
	decl, problems := forms.ParseServerSchema(b.Bytes())
	if len(problems) > 0 {
		return forms.Definition{}, nil, problemsError(CodeInvalidArgument, "the prompt's arguments cannot be asked", problems)
	}
	decl.Definition.Title, decl.Definition.Description = "/"+p.Command(), p.Description
	return decl.Definition, forms.SchemaNames(b.Bytes()), nil
}

// SendPrompt gets a prompt with its arguments (by the server's names) and
// sends its messages as the user's message, as Send does: with no chatID
// it starts a new chat. An argument the prompt does not declare, or a
// required one left out, is refused before the server is asked.
func (s *Service) SendPrompt(ctx context.Context, chatID, command string, args map[string]string, commandID string) (Sent, error) {
	p, err := s.MCPPrompt(command)
	if err != nil {
		return Sent{}, err
	}
	var ps []forms.Problem
	for _, name := range slices.Sorted(maps.Keys(args)) {
		if !slices.ContainsFunc(p.Arguments, func(a mcp.PromptArgument) bool { return a.Name == name }) {
			ps = append(ps, forms.Problem{Path: "/arguments/" + name, Message: fmt.Sprintf("the prompt takes no argument %q", name)})
		}
	}
	var shown []string
	for _, a := range p.Arguments {
		v := args[a.Name]
		if a.Required && strings.TrimSpace(v) == "" {
			ps = append(ps, forms.Problem{Path: "/arguments/" + a.Name, Message: fmt.Sprintf("%s is required", cmp.Or(a.Title, a.Name))})
		}
		if v != "" {
			shown = append(shown, a.Name+": "+v)
		}
	}
	if len(ps) > 0 {
		return Sent{}, problemsError(CodeInvalidArgument, "the prompt's arguments are not right", ps)
	}
	if s.mcp.m == nil {
		return Sent{}, errorf(CodeNotFound, "no MCP server is configured")
	}
	head := "Prompt " + p.Command()
	if len(shown) > 0 {
		head += " (" + strings.Join(shown, ", ") + ")"
	}
	text, err := s.mcp.m.GetPrompt(ctx, p.Server, p.Name, args, MaxMessage-len(head)-2)
	if err != nil {
		return Sent{}, errorf(CodeInvalidArgument, "MCP server %s did not give the prompt %s: %v", p.Server, p.Name, err)
	}
	return s.Send(ctx, chatID, head+"\n\n"+text, commandID)
}

// PromptCompletions are the server's suggestions for the value of a
// prompt's argument (completion/complete), given those filled in: none
// when it offers none, fails, or takes longer than two seconds.
func (s *Service) PromptCompletions(ctx context.Context, command, arg, value string, given map[string]string) []string {
	p, err := s.MCPPrompt(command)
	if err != nil || s.mcp.m == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	vals, _ := s.mcp.m.Complete(ctx, p.Server, p.Name, arg, value, given)
	return vals
}
