package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// inProject runs followup in dir with a home of its own, so the skills it
// finds are the test's.
func inProject(t *testing.T, dir, home string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--db", filepath.Join(home, "f.db")}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline", "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "cfg"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// A skill's description and instructions are drawn sanitised: the escape
// sequences and bidi controls a SKILL.md holds never reach the terminal.
func TestSkillTextIsSanitised(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	dir := filepath.Join(project, ".agents", "skills", "evil")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: evil\ndescription: \"Clears \\e[2J the \\u202e screen\"\n---\n"+
		"Body \x1b]0;pwned\x07 text \x1b[31mred\n"), 0o644)
	for _, args := range [][]string{{"skills"}, {"skills", "show", "evil"}} {
		r := inProject(t, project, home, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "evil") || strings.ContainsAny(r.stdout, "\x1b\x07\u202e") {
			t.Errorf("%v: %d %q %s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := inProject(t, project, home, "skills", "show", "evil"); !strings.Contains(r.stdout, "Body") || !strings.Contains(r.stdout, "red") {
		t.Errorf("skills show lost the text: %q", r.stdout)
	}
}

// A question asked while a skill is active carries it: pending, show and
// inspect, in JSON and in text.
func TestRequestOriginInPendingShowInspect(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	dir := filepath.Join(project, ".claude", "skills", "notes")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: notes\ndescription: Keep notes.\n---\nWrite them down.\n"), 0o644)
	var ask map[string]any
	json.Unmarshal([]byte(inProject(t, project, home, "--json", "ask", "prepare the release checklist").stdout), &ask)
	runID, _ := ask["runId"].(string)
	var pend struct {
		Requests []struct {
			ID     string `json:"id"`
			Origin struct {
				Skill struct {
					Name, Source, Digest string
				} `json:"skill"`
				SkillCandidates []string `json:"skillCandidates"`
			} `json:"origin"`
		} `json:"requests"`
	}
	r := inProject(t, project, home, "--json", "pending")
	if err := json.Unmarshal([]byte(r.stdout), &pend); err != nil || len(pend.Requests) != 1 {
		t.Fatalf("pending: %v %s", err, r.stdout)
	}
	o := pend.Requests[0].Origin
	if o.Skill.Name != "release-checklist" || o.Skill.Source != "built-in" || len(o.Skill.Digest) != 64 ||
		!slices.Contains(o.SkillCandidates, "notes") || !slices.Contains(o.SkillCandidates, "supplemental-information") {
		t.Fatalf("origin %+v", o)
	}
	const words = "asked by the agent while using release-checklist"
	for _, args := range [][]string{{"pending"}, {"show", pend.Requests[0].ID}, {"inspect", runID}} {
		if r := inProject(t, project, home, args...); !strings.Contains(r.stdout, words) {
			t.Errorf("%v does not say %q: %s", args, words, r.stdout)
		}
	}
	var in struct {
		Run struct {
			Skills []struct{ Name string } `json:"skills"`
		} `json:"run"`
		Requests []struct {
			Origin struct{ Skill struct{ Name string } } `json:"origin"`
		} `json:"requests"`
	}
	json.Unmarshal([]byte(inProject(t, project, home, "--json", "inspect", runID).stdout), &in)
	if len(in.Run.Skills) != 1 || in.Run.Skills[0].Name != "release-checklist" || len(in.Requests) != 1 ||
		in.Requests[0].Origin.Skill.Name != "release-checklist" {
		t.Errorf("inspect --json %+v", in)
	}
}
