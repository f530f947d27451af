package skills

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"followup/agent"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nlicense: MIT\nmetadata:\n  author: someone\n---\n# " + name + "\n\nDo it well.\n"
}

func problemFor(set *Set, file string) string {
	for _, p := range set.Problems {
		if p.File == file {
			return p.Reason
		}
	}
	return ""
}

func TestDiscoverSourcesShadowingAndBadSkills(t *testing.T) {
	tmp := t.TempDir()
	user, agents, project := filepath.Join(tmp, "user"), filepath.Join(tmp, "agents"), filepath.Join(tmp, "project")
	write(t, filepath.Join(user, "pdf-tools", "SKILL.md"), skillMD("pdf-tools", "Work with PDF files."))
	write(t, filepath.Join(user, "pdf-tools", "references", "guide.md"), "the guide")
	write(t, filepath.Join(user, "pdf-tools", "scripts", "split.py"), "print(1)")
	write(t, filepath.Join(agents, "pdf-tools", "SKILL.md"), skillMD("pdf-tools", "Better PDF work."))
	write(t, filepath.Join(project, "supplemental-information", "SKILL.md"), skillMD("supplemental-information", "Our own way to ask."))
	write(t, filepath.Join(project, "README.md"), "not a skill")
	os.MkdirAll(filepath.Join(project, ".git", "objects"), 0o755) // a hidden folder is no skill, nor a problem

	bad := map[string]string{
		"no-front":   "# just markdown\n",
		"Bad_Name":   skillMD("Bad_Name", "x"),
		"double--h":  skillMD("double--h", "x"),
		"elsewhere":  skillMD("other", "x"),
		"long-desc":  skillMD("long-desc", strings.Repeat("d", MaxDescription+1)),
		"no-desc":    "---\nname: no-desc\n---\nbody\n",
		"huge":       skillMD("huge", "x") + strings.Repeat("x", MaxFile),
		"not-yaml":   "---\nname: [unclosed\n---\n",
		"missing-md": "",
	}
	want := map[string]string{
		"no-front": "no YAML front matter", "Bad_Name": "a name is 1–64", "double--h": "no hyphen first, last or doubled",
		"elsewhere": `differs from its folder "elsewhere"`, "long-desc": "the limit is 1024", "no-desc": "no description",
		"huge": "larger than the limit of 256 KiB", "not-yaml": "not YAML", "missing-md": "no such file",
		"escape": "a link that leads out of the skill's folder", "bad-form": "/fields/0/type",
	}
	for name, text := range bad {
		if text == "" {
			os.MkdirAll(filepath.Join(project, name), 0o755)
			continue
		}
		write(t, filepath.Join(project, name, "SKILL.md"), text)
	}
	// A SKILL.md that is a link out of its folder.
	write(t, filepath.Join(tmp, "outside.md"), skillMD("escape", "x"))
	os.MkdirAll(filepath.Join(project, "escape"), 0o755)
	if err := os.Symlink(filepath.Join(tmp, "outside.md"), filepath.Join(project, "escape", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	// A form that is not a form: the skill stays, the form is refused.
	write(t, filepath.Join(project, "bad-form", "SKILL.md"), skillMD("bad-form", "x"))
	write(t, filepath.Join(project, "bad-form", "assets", "forms", "f.json"), `{"title":"T","fields":[{"name":"a","type":"colour"}]}`)

	set := Discover(user, agents, filepath.Join(tmp, "absent"), project)
	for name, reason := range want {
		file := filepath.Join(project, name, "SKILL.md")
		if name == "bad-form" {
			file = filepath.Join(project, name, "assets", "forms", "f.json")
		}
		if got := problemFor(set, file); !strings.Contains(got, reason) {
			t.Errorf("%s: problem %q, want one with %q (all: %v)", name, got, reason, set.Problems)
		}
	}
	if len(set.Problems) != len(want) {
		t.Errorf("problems %v, want %d", set.Problems, len(want))
	}

	pdf, ok := set.Get("pdf-tools")
	if !ok || pdf.Source != agents || pdf.Description != "Better PDF work." {
		t.Fatalf("pdf-tools = %+v, want the one of %s", pdf, agents)
	}
	si, _ := set.Get("supplemental-information")
	if si.Source != project || si.Instructions != "# supplemental-information\n\nDo it well." {
		t.Errorf("supplemental-information = %+v, want the project's", si)
	}
	shadowed := map[string]string{}
	for _, s := range set.All {
		if s.ShadowedBy != "" {
			shadowed[s.Name+" "+s.Source] = s.ShadowedBy
		}
	}
	wantShadowed := map[string]string{"pdf-tools " + user: agents, "supplemental-information " + BuiltIn: project}
	if len(shadowed) != 2 || shadowed["pdf-tools "+user] != agents || shadowed["supplemental-information "+BuiltIn] != project {
		t.Errorf("shadowed %v, want %v", shadowed, wantShadowed)
	}
	var names []string
	for _, s := range set.Active() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "bad-form pdf-tools release-checklist supplemental-information" {
		t.Errorf("active skills %q", got)
	}
}

func TestBuiltInSkills(t *testing.T) {
	set := Discover()
	if len(set.Problems) > 0 {
		t.Fatalf("built-in problems: %v", set.Problems)
	}
	si, ok := set.Get("supplemental-information")
	if !ok || !strings.Contains(si.Instructions, `Put known values in "supplied"`) {
		t.Fatalf("supplemental-information = %+v", si)
	}
	def, ok := set.Templates()["release-checklist:checklist"]
	if !ok || def.Title != "Release checklist" || len(def.Fields) != 5 {
		t.Errorf("release-checklist:checklist = %+v, %v", def, ok)
	}
	p := set.Prompt()
	for _, w := range []string{"- release-checklist: Prepare a software release", "- supplemental-information: How to ask"} {
		if !strings.Contains(p, w) {
			t.Errorf("prompt lacks %q:\n%s", w, p)
		}
	}
}

func TestPromptIsBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		name := "skill-" + strings.Repeat("a", i+1)
		write(t, filepath.Join(dir, name, "SKILL.md"), skillMD(name, strings.Repeat("word ", 200)))
	}
	p := Discover(dir).Prompt()
	if len(p) > maxPrompt || !strings.Contains(p, "more not listed") {
		t.Errorf("prompt of %d bytes, want at most %d and a note of what is left out", len(p), maxPrompt)
	}
}

func call(t *testing.T, r *agent.Registry, name, args string) map[string]any {
	t.Helper()
	tool, ok := r.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	var out map[string]any
	if err := json.Unmarshal(tool.Run(context.Background(), agent.CallContext{}, json.RawMessage(args)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestActivateAndReadAreConfined(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "skills")
	write(t, filepath.Join(dir, "pdf-tools", "SKILL.md"), skillMD("pdf-tools", "Work with PDF files."))
	write(t, filepath.Join(dir, "pdf-tools", "references", "guide.md"), "the guide")
	write(t, filepath.Join(dir, "pdf-tools", "references", "big.md"), strings.Repeat("b", MaxFile+1))
	write(t, filepath.Join(tmp, "secret.txt"), "secret")
	if err := os.Symlink(filepath.Join(tmp, "secret.txt"), filepath.Join(dir, "pdf-tools", "references", "link.md")); err != nil {
		t.Fatal(err)
	}
	r := agent.NewRegistry()
	if err := Discover(dir).Register(r); err != nil {
		t.Fatal(err)
	}
	got := call(t, r, "skill_activate", `{"name":"pdf-tools"}`)
	if got["ok"] != true || got["instructions"] != "# pdf-tools\n\nDo it well." {
		t.Fatalf("activate = %v", got)
	}
	if files, _ := json.Marshal(got["files"]); string(files) != `["references/big.md","references/guide.md","references/link.md"]` {
		t.Errorf("files = %s", files)
	}
	if got := call(t, r, "skill_read", `{"name":"pdf-tools","path":"references/guide.md"}`); got["text"] != "the guide" {
		t.Errorf("read guide = %v", got)
	}
	for _, path := range []string{"../../secret.txt", "/etc/passwd", "references/link.md", "references/big.md", "references"} {
		got := call(t, r, "skill_read", `{"name":"pdf-tools","path":"`+path+`"}`)
		if got["ok"] != false || strings.Contains(string(result(got)), `"secret"`) {
			t.Errorf("read %s = %v, want a refusal", path, got)
		}
	}
	if got := call(t, r, "skill_activate", `{"name":"nope"}`); !strings.Contains(string(result(got)), "NOT_FOUND") {
		t.Errorf("activate nope = %v", got)
	}
}
