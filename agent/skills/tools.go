package skills

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"followup/agent"
)

// maxPrompt bounds the skills' part of the system prompt.
const maxPrompt = 16 << 10

// Prompt is the system prompt's list of skills: every name and description,
// bounded, and how to use them (docs/skills.md).
func (set *Set) Prompt() string {
	active := set.Active()
	if len(active) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nSkills (call skill_activate with a skill's name when its description fits the task; activate supplemental-information before you first ask the user):\n")
	for i, s := range active {
		line := "- " + s.Name + ": " + strings.Join(strings.Fields(s.Description), " ") + "\n"
		if b.Len()+len(line) > maxPrompt {
			fmt.Fprintf(&b, "- (%d more not listed)\n", len(active)-i)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

const activateParams = `{"type":"object","required":["name"],"properties":{"name":{"type":"string","description":"the skill's name"}}}`

const readParams = `{"type":"object","required":["name","path"],"properties":{
 "name":{"type":"string","description":"the skill's name"},
 "path":{"type":"string","description":"a file of the skill's folder, e.g. references/guide.md"}}}`

// Register adds skill_activate and skill_read to the agent's tools.
func (set *Set) Register(r *agent.Registry) error {
	err := r.Register(agent.ToolSpec{Name: "skill_activate", Parameters: json.RawMessage(activateParams),
		Description: `Load a skill: returns its instructions, its files (read them with skill_read; scripts are never run) and its forms: ask with one by naming it in input_request's source, {"kind":"template","template":NAME}.`},
		set.activate)
	if err != nil {
		return err
	}
	return r.Register(agent.ToolSpec{Name: "skill_read", Parameters: json.RawMessage(readParams),
		Description: "Read one file of a skill's folder, e.g. a reference its instructions name."},
		set.read)
}

func (set *Set) activate(_ context.Context, _ agent.CallContext, args json.RawMessage) json.RawMessage {
	var a struct {
		Name string `json:"name"`
	}
	s, res := set.find(args, &a, &a.Name)
	if s == nil {
		return res
	}
	formList := []map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(s.Forms)) {
		formList = append(formList, map[string]any{"template": name, "definition": s.Forms[name]})
	}
	return result(map[string]any{"ok": true, "name": s.Name, "source": s.Source, "digest": s.Digest,
		"instructions": s.Instructions, "files": orEmpty(s.Files), "forms": formList})
}

func (set *Set) read(_ context.Context, _ agent.CallContext, args json.RawMessage) json.RawMessage {
	var a struct {
		Name string `json:"name"`
		Path string `json:"path"`
	}
	s, res := set.find(args, &a, &a.Name)
	if s == nil {
		return res
	}
	text, err := s.Read(a.Path)
	if err != nil {
		return agent.ToolFailure("INVALID_ARGUMENT", err.Error())
	}
	return result(map[string]any{"ok": true, "name": s.Name, "path": a.Path, "text": text})
}

// find decodes args into a and looks up the skill *name names.
func (set *Set) find(args json.RawMessage, a any, name *string) (*Skill, json.RawMessage) {
	if err := json.Unmarshal(args, a); err != nil {
		return nil, agent.ToolFailure("INVALID_ARGUMENT", "the arguments are not a JSON object: "+err.Error())
	}
	s, ok := set.Get(*name)
	if !ok {
		var names []string
		for _, s := range set.Active() {
			names = append(names, s.Name)
		}
		return nil, agent.ToolFailure("NOT_FOUND", fmt.Sprintf("no skill named %q (there are: %s)", *name, strings.Join(names, ", ")))
	}
	return s, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func result(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
