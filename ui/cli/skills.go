package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"followup/agent/skills"
	"followup/chat"
	"followup/forms"
)

// skillsList is `followup skills`: every skill found, where, which later
// one shadows it, and each skill refused (docs/skills.md).
func skillsList(_ context.Context, c *Call) error {
	set := skills.Discover(skills.UserDirs()...)
	c.OK(map[string]any{"skills": set.All, "problems": orNone(set.Problems)}, func(w io.Writer) {
		for _, s := range set.All {
			line := s.Name + "  " + s.Source
			if s.ShadowedBy != "" {
				line += "  (shadowed by " + s.ShadowedBy + ")"
			}
			fmt.Fprintln(w, forms.SanitizeLine(line))
			fmt.Fprintln(w, "  "+forms.SanitizeLine(s.Description))
		}
		for _, p := range set.Problems {
			fmt.Fprintln(w, "refused "+forms.SanitizeLine(p.String()))
		}
	})
	return nil
}

// skillShow is `followup skills show NAME`: the skill in use of that name,
// its instructions, files and forms.
func skillShow(_ context.Context, c *Call) error {
	set := skills.Discover(skills.UserDirs()...)
	s, ok := set.Get(c.Arg(0))
	if !ok {
		return &chat.Error{Code: chat.CodeNotFound, Message: fmt.Sprintf("no skill named %q (followup skills lists them)", c.Arg(0))}
	}
	formNames := slices.Sorted(maps.Keys(s.Forms))
	c.OK(map[string]any{"skill": s, "instructions": s.Instructions, "forms": orNone(formNames)}, func(w io.Writer) {
		fmt.Fprintln(w, forms.SanitizeLine(s.Name+"  "+s.Source))
		fmt.Fprintln(w, forms.SanitizeLine(s.Description))
		fmt.Fprintln(w)
		fmt.Fprintln(w, forms.SanitizeBlock(s.Instructions))
		if len(s.Files) > 0 {
			fmt.Fprintln(w, "\nfiles: "+forms.SanitizeLine(strings.Join(s.Files, ", ")))
		}
		if len(formNames) > 0 {
			fmt.Fprintln(w, "forms: "+strings.Join(formNames, ", "))
		}
	})
	return nil
}

// reportSkillProblems prints each skill refused in one line, for the
// commands that drive the agent; followup goes on with the others.
func reportSkillProblems(o chat.Options, stderr io.Writer) {
	if o.Skills == nil {
		return
	}
	for _, p := range o.Skills.Problems {
		fmt.Fprintf(stderr, "followup: skill refused: %s\n", forms.SanitizeLine(p.String()))
	}
}

func orNone[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
