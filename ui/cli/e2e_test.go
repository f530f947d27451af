package cli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"followup/ui/cli"
)

type result struct {
	stdout, stderr string
	code           int
}

func runCLI(t *testing.T, db string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline")
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

func decode(t *testing.T, r result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return m
}

func TestAskPendingAnswerInspect(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e2e.db")
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	if ask["ok"] != true || ask["state"] != "waiting_input" {
		t.Fatalf("ask = %v", ask)
	}
	pend := runCLI(t, db, "--json", "pending")
	reqs := decode(t, pend)["requests"].([]any)
	if len(reqs) != 1 {
		t.Fatalf("pending = %v", reqs)
	}
	req := reqs[0].(map[string]any)
	for _, k := range []string{"id", "digest", "chatId", "runId", "state", "title", "reason", "fields", "prefill"} {
		if _, ok := req[k]; !ok {
			t.Errorf("pending request lacks %q", k)
		}
	}
	id := req["id"].(string)
	// Flags after the arguments work as well as before.
	ans := runCLI(t, db, "answer", id, "--values-json", `{"environment":"production"}`, "--digest", req["digest"].(string), "--json")
	if ans.code != 0 {
		t.Fatalf("answer exit %d: %s %s", ans.code, ans.stdout, ans.stderr)
	}
	a := decode(t, ans)
	rc := a["receipt"].(map[string]any)
	if rc["applyState"] != "applied" || rc["requestId"] != id || rc["commandId"] == "" {
		t.Fatalf("receipt = %v", rc)
	}
	insp := decode(t, runCLI(t, db, "inspect", req["runId"].(string), "--json"))
	run := insp["run"].(map[string]any)
	res, _ := json.Marshal(run["result"])
	if run["state"] != "succeeded" || string(res) != `{"environment":"production"}` {
		t.Fatalf("run = %v", run)
	}
	show := decode(t, runCLI(t, db, "show", id, "--json"))["request"].(map[string]any)
	ds := show["deliveries"].([]any)
	if show["state"] != "answered" || len(ds) != 1 || ds[0].(map[string]any)["state"] != "delivered" {
		t.Fatalf("show = %v", show)
	}
	// A late answer is refused and says why.
	late := runCLI(t, db, "answer", id, "--values-json", `{"environment":"staging"}`, "--json")
	if late.code != 1 || decode(t, late)["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Fatalf("late answer: %d %s", late.code, late.stdout)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "u.db")
	for _, args := range [][]string{{"frobnicate"}, {"pending", "--bogus"}, {"answer", "x"}, {"show"}, {"--db"}} {
		r := runCLI(t, db, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "usage:") || r.stdout != "" {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

func TestUsageErrorsInJSON(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "uj.db")
	for _, args := range [][]string{{"bogus", "--json"}, {"answer", "rq_1", "--json"}, {"--json", "pending", "--frob"}, {"--json"}} {
		r := runCLI(t, db, args...)
		if r.code != 2 || decode(t, r)["error"].(map[string]any)["code"] != "USAGE" {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
}

func TestUnknownIDIsNotFound(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "n.db")
	for _, args := range [][]string{{"show", "rq_nope"}, {"inspect", "run_nope"}, {"answer", "rq_nope", "--values-json", "{}"}, {"cancel", "rq_nope"}, {"stop", "run_nope"}} {
		r := runCLI(t, db, append(args, "--json")...)
		if r.code != 1 || decode(t, r)["error"].(map[string]any)["code"] != "NOT_FOUND" {
			t.Errorf("%v: exit %d, %s", args, r.code, r.stdout)
		}
	}
}

func TestCorruptDatabaseIsRefusedUntouched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "bad.db")
	junk := []byte("this is not a database, just some text\n")
	if err := os.WriteFile(db, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, db, "pending")
	if r.code != 1 || !strings.Contains(r.stderr, db) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	got, _ := os.ReadFile(db)
	if !bytes.Equal(got, junk) {
		t.Fatal("the file was changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files were created beside it: %v", entries)
	}
}

func TestNewDatabaseIsPrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nested", "data")
	db := filepath.Join(dir, "f.db")
	if r := runCLI(t, db, "chats", "--json"); r.code != 0 {
		t.Fatalf("chats: %d %s", r.code, r.stderr)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, db: 0o600} {
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", path, st.Mode().Perm(), want, err)
		}
	}
}

func TestValidateInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"requestKey":"k","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"a","type":"text"}]}}}`), 0o600)
	if r := runCLI(t, filepath.Join(dir, "v.db"), "validate-input", good); r.code != 0 {
		t.Fatalf("valid: %d %s %s", r.code, r.stdout, r.stderr)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"requestKey":"k","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"a","type":"nope"}]}}}`), 0o600)
	r := runCLI(t, filepath.Join(dir, "v.db"), "validate-input", bad, "--json")
	e := decode(t, r)["error"].(map[string]any)
	if r.code != 1 || e["code"] != "INPUT_REQUEST_INVALID" {
		t.Fatalf("invalid: %d %s", r.code, r.stdout)
	}
	text := runCLI(t, filepath.Join(dir, "v.db"), "validate-input", bad)
	if text.code != 1 || !strings.Contains(text.stderr, "/source/definition/fields/0/type") {
		t.Fatalf("text output does not name the path: %q", text.stderr)
	}
}

// validate-input refuses /dev/zero and a 1 GiB sparse file quickly and
// with little memory, naming the size it can know. The memory is each
// command's own peak, measured from a small parent (testdata/peakrss):
// a child's peak counts its parent's resident memory at the exec, and
// this test binary is big, bigger still under -race.
func TestValidateInputBoundedRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30)
	f.Close()
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	// Reading 8 MiB costs at most a few times that (the buffer grows by
	// doubling); reading the whole input cost a gigabyte.
	const slack = 48 << 10 // KiB
	base, _, _ := peakRSS(t, nil, "--version")
	for _, tc := range []struct {
		args  []string
		stdin io.Reader
		says  string
	}{
		{[]string{"validate-input", "/dev/zero"}, nil, "/dev/zero is more than 8 MiB"},
		{[]string{"validate-input", sparse}, nil, "is 1.0 GiB (1073741824 bytes); the limit is 8 MiB"},
		{[]string{"validate-input", "-"}, zero, "standard input is more than 8 MiB"},
	} {
		rss, stderr, code := peakRSS(t, tc.stdin, tc.args...)
		if code != 1 || !strings.Contains(stderr, "LIMIT_EXCEEDED") || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
			continue
		}
		if rss > base+slack {
			t.Errorf("%v: peak RSS %d KiB, --version %d KiB", tc.args, rss, base)
		}
	}
	// Standard input is read up to the limit and no further: what an
	// endless pipe gave it is the limit, plus what the pipe holds.
	in := &countingZeros{}
	if _, stderr, code := peakRSS(t, in, "validate-input", "-"); code != 1 || !strings.Contains(stderr, "standard input is more than 8 MiB") {
		t.Fatalf("endless pipe: exit %d, %q", code, stderr)
	}
	if n := in.n.Load(); n < cli.MaxInputRead || n > cli.MaxInputRead+1<<20 {
		t.Errorf("the command took %d bytes of an endless pipe; the limit is %d", n, cli.MaxInputRead)
	}
}

// peakRSS runs followup with args through testdata/peakrss and returns
// its own peak resident memory in KiB, its stderr and its exit code.
func peakRSS(t *testing.T, stdin io.Reader, args ...string) (int64, string, int) {
	t.Helper()
	cmd := exec.Command(peakRSSBin, append([]string{bin}, args...)...)
	cmd.Stdin = stdin
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out := errb.String()
	i := strings.LastIndex(out, "peakrss ")
	if i < 0 {
		t.Fatalf("%v: no peak reported: %q", args, out)
	}
	kib, err := strconv.ParseInt(strings.TrimSpace(out[i+len("peakrss "):]), 10, 64)
	if err != nil || kib <= 0 {
		t.Fatalf("%v: peak %q: %v", args, out[i:], err)
	}
	return kib, out[:i], code
}

// countingZeros is an endless input that counts what was taken from it.
type countingZeros struct{ n atomic.Int64 }

func (z *countingZeros) Read(p []byte) (int, error) {
	clear(p)
	z.n.Add(int64(len(p)))
	return len(p), nil
}
