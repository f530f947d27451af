package chat_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
)

// Killed (SIGKILL) between activating a skill and asking with its form,
// then resumed: the run asks under the same skill; a skill edited
// meanwhile is told to the run (and the user), which reads it again, and
// the question's origin names the version it was asked under.
func TestKilledAfterSkillActivationThenResumed(t *testing.T) {
	t.Parallel()
	for _, edit := range []bool{false, true} {
		home := t.TempDir()
		dir := filepath.Join(home, "cfg", "followup", "skills", "release-checklist")
		os.MkdirAll(filepath.Join(dir, "assets", "forms"), 0o755)
		builtin := filepath.Join("..", "agent", "skills", "builtin", "release-checklist")
		md, _ := os.ReadFile(filepath.Join(builtin, "SKILL.md"))
		form, _ := os.ReadFile(filepath.Join(builtin, "assets", "forms", "checklist.json"))
		os.WriteFile(filepath.Join(dir, "SKILL.md"), md, 0o644)
		os.WriteFile(filepath.Join(dir, "assets", "forms", "checklist.json"), form, 0o644)
		w := newWorld(t, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "cfg"))

		r := w.cli.run(crashAt(chat.CrashToolResultRecorded), "ask", "prepare the release checklist", "--command-id", "ask")
		runID := w.runOfCommand("ask")
		if !r.Killed || runID == "" || w.count(`SELECT COUNT(*) FROM requests`) != 0 {
			t.Fatalf("the ask was not killed after the activation: %s", r)
		}
		if edit {
			md = append(md, "\nAlso check the licence file.\n"...)
			os.WriteFile(filepath.Join(dir, "SKILL.md"), md, 0o644)
		}
		sum := sha256.Sum256(md)
		res := w.cli.ok(nil, "resume", runID)
		if str(res.JSON, "run", "state") != "waiting_input" || str(res.JSON, "pending", 0, "origin", "skill", "name") != "release-checklist" ||
			str(res.JSON, "pending", 0, "origin", "skill", "digest") != hex.EncodeToString(sum[:]) {
			t.Fatalf("edited %v: resume %s", edit, res.Stdout)
		}
		pend := w.cli.ok(nil, "pending")
		if str(pend.JSON, "requests", 0, "origin", "skill", "source") != filepath.Dir(dir) {
			t.Fatalf("edited %v: pending %s", edit, pend.Stdout)
		}
		told := strings.Contains(w.cli.ok(nil, "inspect", runID).Stdout, "The skill release-checklist changed since the agent activated it")
		if told != edit {
			t.Fatalf("edited %v, told %v", edit, told)
		}
	}
}
