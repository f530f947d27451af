package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// askDeploy asks the demo deploy question and returns the chat, run and
// request ids and the short digest the text output prints.
func askDeploy(t *testing.T, db string) (chatID, runID, reqID, short string) {
	t.Helper()
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	req := ask["pending"].([]any)[0].(map[string]any)
	text := runCLI(t, db, "pending", "--chat", ask["chatId"].(string))
	for _, line := range strings.Split(text.stdout, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "pending" && f[1] == req["id"] {
			short = f[len(f)-1]
		}
	}
	if len(short) != 12 || !strings.HasPrefix(req["digest"].(string), short) {
		t.Fatalf("pending prints digest %q for %s", short, req["digest"])
	}
	return ask["chatId"].(string), ask["runId"].(string), req["id"].(string), short
}

// One rule for exit codes: a malformed command line — --values-json that
// is not a JSON object, a digest too short to name anything — is a usage
// error (2) found before anything is read; what the request refuses is 1.
func TestMalformedArgumentsAreUsageErrors(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "m.db")
	_, _, rq, short := askDeploy(t, db)
	for _, args := range [][]string{
		{"answer", rq, "--values-json", "{environment: staging}"},
		{"answer", rq, "--values-json", `["staging"]`},
		{"answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", short[:8]},
		{"answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", "not-a-digest-at-all"},
	} {
		r := runCLI(t, db, append(args, "--json")...)
		if e := decode(t, r)["error"].(map[string]any); r.code != 2 || e["code"] != "USAGE" {
			t.Errorf("%q: exit %d, %s", args, r.code, r.stdout)
		}
	}
	if r := runCLI(t, db, "answer", rq, "--values-json", "{", "--digest", short[:8]); r.code != 2 || !strings.Contains(r.stderr, "usage: followup answer") {
		t.Errorf("text: exit %d, %q", r.code, r.stderr)
	}
	short8 := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", short[:8])
	if !strings.Contains(short8.stderr, "is shorter than 12 hex characters") {
		t.Errorf("a short digest does not say the minimum: %q", short8.stderr)
	}
	if zz := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", "ZZZZ"); zz.code != 2 ||
		!strings.HasPrefix(zz.stderr, `followup: --digest: the digest "ZZZZ" is not hex: 'Z' is not one of 0-9 a-f`) {
		t.Errorf("a digest that is not hex: exit %d %q", zz.code, zz.stderr)
	}
	// Well-formed values the form refuses are the request's answer: exit 1.
	r := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"moon"}`, "--json")
	if e := decode(t, r)["error"].(map[string]any); r.code != 1 || e["code"] != "INPUT_REPLY_INVALID" {
		t.Errorf("invalid values: exit %d, %s", r.code, r.stdout)
	}
	if show := decode(t, runCLI(t, db, "show", rq, "--json"))["request"].(map[string]any); show["state"] != "pending" {
		t.Fatalf("a refused answer changed the request: %v", show["state"])
	}
}

// The short digest pending prints is accepted by --digest; a wrong one is
// STALE_TARGET saying it matches no revision.
func TestShortDigestIsAccepted(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "d.db")
	_, _, rq, short := askDeploy(t, db)
	wrong := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", "0123456789ab")
	if wrong.code != 1 || !strings.Contains(wrong.stderr, "STALE_TARGET") || !strings.Contains(wrong.stderr, "matches no revision") {
		t.Fatalf("a wrong digest: exit %d, %q", wrong.code, wrong.stderr)
	}
	r := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`, "--digest", short, "--json")
	if r.code != 0 || decode(t, r)["receipt"].(map[string]any)["applyState"] != "applied" {
		t.Fatalf("the short digest: exit %d, %s", r.code, r.stdout)
	}
}

// resume of a run that succeeded or was stopped is refused, like stop.
func TestResumeOfAnEndedRun(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "r.db")
	_, done, rq, _ := askDeploy(t, db)
	if r := runCLI(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`); r.code != 0 {
		t.Fatalf("answer: %d %s", r.code, r.stderr)
	}
	_, stopped, _, _ := askDeploy(t, db)
	if r := runCLI(t, db, "stop", stopped); r.code != 0 {
		t.Fatalf("stop: %d %s", r.code, r.stderr)
	}
	for run, state := range map[string]string{done: "succeeded", stopped: "stopped"} {
		r := runCLI(t, db, "resume", run, "--json")
		e := decode(t, r)["error"].(map[string]any)
		if r.code != 1 || e["code"] != "TARGET_CLOSED" || e["details"].(map[string]any)["state"] != state {
			t.Errorf("resume of a %s run: exit %d, %s", state, r.code, r.stdout)
		}
		if text := runCLI(t, db, "resume", run); text.code != 1 || text.stdout != "" || !strings.Contains(text.stderr, "TARGET_CLOSED") {
			t.Errorf("resume of a %s run, text: exit %d, %q %q", state, text.code, text.stdout, text.stderr)
		}
	}
}

// decide accepts or rejects a proposal, with the receipts and command-id
// idempotency of every mutation; accepting a resolve fills the draft and
// says how to send it.
func TestDecide(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "dc.db")
	propose := func() (rq, prop string) {
		ch, _, rq, _ := askDeploy(t, db)
		ask := runCLI(t, db, "ask", "use staging", "--chat", ch)
		if ask.code != 0 {
			t.Fatalf("ask: %d %s", ask.code, ask.stderr)
		}
		ps := decode(t, runCLI(t, db, "show", rq, "--json"))["request"].(map[string]any)["proposals"].([]any)
		prop = ps[0].(map[string]any)["proposalId"].(string)
		if !strings.Contains(ask.stdout, "followup decide "+prop+" --accept") {
			t.Errorf("ask does not say how to decide the proposal:\n%s", ask.stdout)
		}
		return rq, prop
	}
	rq, prop := propose()
	acc := runCLI(t, db, "decide", prop, "--accept", "--command-id", "dec-1", "--json")
	doc := decode(t, acc)
	rc := doc["receipt"].(map[string]any)
	if acc.code != 0 || rc["state"] != "accepted" || rc["commandId"] != "dec-1" || rc["requestId"] != rq ||
		rc["draft"].(map[string]any)["environment"] != "staging" {
		t.Fatalf("decide --accept: exit %d, %s", acc.code, acc.stdout)
	}
	if again := runCLI(t, db, "decide", prop, "--accept", "--command-id", "dec-1", "--json"); again.code != 0 || again.stdout != acc.stdout {
		t.Errorf("the same command id again: exit %d\n%s\n%s", again.code, again.stdout, acc.stdout)
	}
	if other := runCLI(t, db, "decide", prop, "--reject", "--command-id", "dec-1", "--json"); other.code != 1 ||
		decode(t, other)["error"].(map[string]any)["code"] != "COMMAND_ID_CONFLICT" {
		t.Errorf("the command id for another decision: exit %d, %s", other.code, other.stdout)
	}
	if late := runCLI(t, db, "decide", prop, "--reject", "--json"); late.code != 1 ||
		decode(t, late)["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Errorf("deciding twice: exit %d, %s", late.code, late.stdout)
	}

	rq2, prop2 := propose()
	text := runCLI(t, db, "decide", prop2, "--accept")
	if text.code != 0 || !strings.Contains(text.stdout, `followup answer `+rq2+` --values-json '{"environment":"staging"}'`) {
		t.Fatalf("decide --accept, text: exit %d\n%s", text.code, text.stdout)
	}
	rq3, prop3 := propose()
	rej := runCLI(t, db, "decide", prop3, "--reject")
	if rej.code != 0 || !strings.Contains(rej.stdout, "rejected") {
		t.Fatalf("decide --reject: exit %d %q", rej.code, rej.stdout)
	}
	if show := decode(t, runCLI(t, db, "show", rq3, "--json"))["request"].(map[string]any); show["state"] != "pending" || show["proposals"] != nil {
		t.Errorf("after rejecting: %v", show)
	}
	if r := runCLI(t, db, "decide", "prop_nope", "--accept", "--json"); r.code != 1 || decode(t, r)["error"].(map[string]any)["code"] != "NOT_FOUND" {
		t.Errorf("unknown proposal: exit %d, %s", r.code, r.stdout)
	}
	_ = rq
}
