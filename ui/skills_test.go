package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

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

// f4 lists the skills: each with its source, what shadows it and its
// description, sanitised, and each skill refused; esc closes the list.
func TestSkillsPage(t *testing.T) {
	dir := t.TempDir()
	for name, md := range map[string]string{
		"release-checklist": "---\nname: release-checklist\ndescription: \"Our own \\e[2J releases \\u202e here\"\n---\nShip it.\n",
		"Bad":               "---\nname: Bad\ndescription: x\n---\n",
	} {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(md), 0o644)
	}
	k := newKit(t, withSkills(dir))
	k.load("")
	k.m.Update(tea.KeyMsg{Type: tea.KeyF4})
	f := frameOf(k.m)
	for _, want := range []string{"Skills — 2 in use, 1 refused", "release-checklist  built-in  (shadowed by " + dir + ")",
		"release-checklist  " + dir, "Our own", "releases", "supplemental-information  built-in",
		filepath.Join(dir, "Bad", "SKILL.md") + ": name \"Bad\""} {
		if !strings.Contains(f, want) {
			t.Errorf("the skills page lacks %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, "\x1b[2J") || strings.Contains(f, "\u202e") {
		t.Fatalf("the page draws a skill's raw controls: %q", f)
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if _, ok := k.m.dialogs.Screen(); ok {
		t.Fatal("esc did not close the skills page")
	}
}
