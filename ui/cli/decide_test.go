package cli_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"followup/chat"
	"followup/forms"
)

// runShell runs one command line the way a user pastes it into a shell,
// with followup on PATH and the database in FOLLOWUP_DB.
func runShell(t *testing.T, dir, db, line string) result {
	t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FOLLOWUP_DB="+db, "FOLLOWUP_PROVIDER=offline")
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

// Accepting a proposal into a draft the form saved (number text as typed,
// cleared fields as "", quotes in a text) prints an answer command that works as printed:
// only the draft's valid answers, numbers as numbers, the digest of the
// revision it was made for. The test pastes it into a shell.
func TestDecideOffersACommandThatWorks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "dw.db")
	ask := decode(t, runCLI(t, db, "ask", "Plan a trip", "--json"))
	chatID := ask["chatId"].(string)
	req := ask["pending"].([]any)[0].(map[string]any)
	rq := req["id"].(string)

	// What the chat screen saves while the user types: every touched field,
	// number text as a string, a field typed into and cleared as "".
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	draft := forms.Values{"destination": "Oslo", "start": "", "travelers": "3", "budget": "12a", "notes": `Anna's "R&D" trip`}
	if err := svc.SaveDraft(ctx, chat.Draft{RequestID: rq, Revision: 1, Values: draft, Edited: true}); err != nil {
		t.Fatal(err)
	}
	svc.Close()

	if r := runCLI(t, db, "ask", "by train, please", "--chat", chatID); r.code != 0 {
		t.Fatalf("ask: %d %s", r.code, r.stderr)
	}
	show := decode(t, runCLI(t, db, "show", rq, "--json"))["request"].(map[string]any)
	prop := show["proposals"].([]any)[0].(map[string]any)["proposalId"].(string)

	dec := runCLI(t, db, "decide", prop, "--accept")
	var line string
	for _, l := range strings.Split(dec.stdout, "\n") {
		if cmd, ok := strings.CutPrefix(l, "send it with: "); ok {
			line = cmd
		}
	}
	if dec.code != 0 || line == "" || !strings.Contains(dec.stdout, "not a valid answer yet: Budget") {
		t.Fatalf("decide --accept: exit %d\n%s%s", dec.code, dec.stdout, dec.stderr)
	}
	sent := runShell(t, dir, db, line)
	if sent.code != 0 || !strings.Contains(sent.stdout, rq+" kept as partial; still missing: start") {
		t.Fatalf("the printed command %s: exit %d\n%s%s", line, sent.code, sent.stdout, sent.stderr)
	}
	partial := decode(t, runCLI(t, db, "show", rq, "--json"))["request"].(map[string]any)["partial"]
	want := map[string]any{"destination": "Oslo", "travelers": 3.0, "transport": "train", "notes": `Anna's "R&D" trip`}
	if !reflect.DeepEqual(partial, want) {
		t.Errorf("after the printed command the request holds %v, want %v", partial, want)
	}
}

// A script that polls `pending --json` finds the proposal waiting on a
// request, under the request, as show and ask give it, and can decide it;
// once decided it is gone from the list.
func TestPendingJSONCarriesWaitingProposals(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "pp.db")
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	chatID := ask["chatId"].(string)
	if r := runCLI(t, db, "ask", "use staging", "--chat", chatID); r.code != 0 {
		t.Fatalf("ask: %d %s", r.code, r.stderr)
	}
	entry := decode(t, runCLI(t, db, "pending", "--json"))["requests"].([]any)[0].(map[string]any)
	show := decode(t, runCLI(t, db, "show", entry["id"].(string), "--json"))["request"].(map[string]any)
	if !reflect.DeepEqual(entry["proposals"], show["proposals"]) || entry["proposals"] == nil {
		t.Fatalf("pending's proposals %v, show's %v", entry["proposals"], show["proposals"])
	}
	p := entry["proposals"].([]any)[0].(map[string]any)
	if !reflect.DeepEqual(p["values"], map[string]any{"environment": "staging"}) {
		t.Fatalf("proposal = %v", p)
	}
	if r := runCLI(t, db, "decide", p["proposalId"].(string), "--reject"); r.code != 0 {
		t.Fatalf("decide: %d %s", r.code, r.stderr)
	}
	entry = decode(t, runCLI(t, db, "pending", "--json"))["requests"].([]any)[0].(map[string]any)
	if _, ok := entry["proposals"]; ok {
		t.Fatalf("a decided proposal is still listed: %v", entry)
	}
}
