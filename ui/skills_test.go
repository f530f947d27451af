package ui

import (
	"strings"
	"testing"

	"followup/agent/skills"
	"followup/chat"
)

func withSkills(dirs ...string) func(*chat.Options) {
	return func(o *chat.Options) { o.Skills = skills.Discover(dirs...) }
}

// A question asked while a skill is active says so on its form.
func TestFormSaysWhichSkillAsked(t *testing.T) {
	k := newKit(t, withSkills())
	sent := k.ask("prepare the release checklist")
	k.load(sent.ChatID)
	if f := frameOf(k.m); !strings.Contains(f, "asked while using release-checklist") {
		t.Fatalf("the form does not name the skill:\n%s", f)
	}
}
