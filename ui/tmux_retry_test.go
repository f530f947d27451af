package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"followup/ui/termtest"
)

// A run that failed because the model could not be reached (here, a
// provider pointed at a closed port) is retried by ctrl+r once the screen
// runs with a provider that works, and the status line says so.
func TestTerminalCtrlRRetriesAFailedRun(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	cmd := exec.Command(termtest.Binary(t), "--db", db, "--json", "ask", "Check deployment")
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=openai", "OPENAI_API_KEY=k", "OPENAI_BASE_URL=http://127.0.0.1:9/v1")
	if out, err := cmd.Output(); err == nil {
		t.Fatalf("the ask did not fail: %s", out)
	}
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("The run failed", "failed")
	tm.Keys("C-r")
	s := tm.WaitFor("Choose an environment", "Retried the failed run")
	if containsAll(s, "No interrupted runs") {
		t.Fatalf("ctrl+r found nothing to resume:\n%s", s)
	}
}
