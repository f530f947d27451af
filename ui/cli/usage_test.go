package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// help CMD and CMD --help print that command's usage, the same text, with
// its flags; the whole usage lists every command.
func TestHelpPerCommand(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	whole := runCLI(t, db, "help")
	if whole.code != 0 || whole.stdout != runCLI(t, db, "--help").stdout {
		t.Fatalf("help: %d %q", whole.code, whole.stderr)
	}
	for _, name := range []string{"ask", "answer", "validate-input", "chats"} {
		if !strings.Contains(whole.stdout, "\n  "+name+" ") {
			t.Errorf("the usage does not list %s", name)
		}
	}
	h := runCLI(t, db, "help", "answer")
	if h.code != 0 || !strings.Contains(h.stdout, "Usage:\n  followup answer REQUEST_ID --values-json JSON [--digest D] [--command-id ID] [--no-wait]\n") ||
		!strings.Contains(h.stdout, "--values-json JSON") || strings.Contains(h.stdout, "validate-input") {
		t.Fatalf("help answer: %d\n%s", h.code, h.stdout)
	}
	// --help needs none of the command's arguments.
	if f := runCLI(t, db, "answer", "--help"); f.code != 0 || f.stdout != h.stdout {
		t.Fatalf("answer --help: %d\n%s", f.code, f.stdout)
	}
	j := decode(t, runCLI(t, db, "help", "answer", "--json"))
	if j["ok"] != true || j["usage"] != h.stdout {
		t.Fatalf("help answer --json: %v", j)
	}
	// A command's own flags speak of that command only.
	for name, other := range map[string]string{"pending": "ask", "ask": "pending"} {
		out := runCLI(t, db, "help", name).stdout
		_, flags, _ := strings.Cut(out, "\nFlags:\n")
		if flags, _, _ = strings.Cut(flags, "\nGlobal Flags:"); flags == "" || strings.Contains(flags, other) {
			t.Errorf("help %s: its flags speak of %s:\n%s", name, other, out)
		}
	}
	if u := runCLI(t, db, "help", "frobnicate"); u.code != 2 || !strings.Contains(u.stderr, `unknown command "frobnicate"`) {
		t.Fatalf("help frobnicate: %d %q", u.code, u.stderr)
	}
}

// A usage error prints one line saying what is wrong and the usage of the
// command it is about, not the whole usage; with --json one document.
func TestUsageErrorNamesTheCommand(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "ue.db")
	for _, tc := range []struct {
		args     []string
		why, syn string
	}{
		{[]string{"answer", "rq_x"}, "answer needs --values-json", "followup answer REQUEST_ID --values-json JSON"},
		{[]string{"show"}, "show needs REQUEST_ID", "followup show REQUEST_ID"},
		{[]string{"chats", "extra"}, `chats takes no arguments, got 1 argument: "extra"`, "followup chats"},
		{[]string{"pending", "--digest", "abc"}, "unknown flag: --digest", "followup pending [--chat ID]"},
		{[]string{"ask", ""}, "the message is empty", "followup ask MESSAGE"},
		{[]string{"ask", "hi", "--chat="}, `invalid argument "" for "--chat" flag: is empty`, "followup ask MESSAGE"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, "followup [flags]"},
		{[]string{"--chat", "ch_1"}, "unknown flag: --chat", "followup [flags]"},
		{[]string{"pending", "-chat", "ch_1"}, "unknown shorthand flag: 'c' in -chat", "followup pending"},
		{[]string{"mcp"}, "mcp needs a subcommand: list, resources", "followup mcp COMMAND"},
		{[]string{"completion", "nosh"}, `unknown command "completion nosh"`, "followup completion COMMAND"},
	} {
		r := runCLI(t, db, tc.args...)
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		if r.code != 2 || r.stdout != "" || !strings.HasPrefix(lines[0], "followup: "+tc.why) ||
			len(lines) > 3 || !strings.HasPrefix(lines[1], "usage: "+tc.syn) {
			t.Errorf("%q: exit %d, stderr:\n%s", tc.args, r.code, r.stderr)
		}
		j := runCLI(t, db, append(tc.args, "--json")...)
		e, _ := decode(t, j)["error"].(map[string]any)
		details, _ := e["details"].(map[string]any)
		usage, _ := details["usage"].(string)
		if j.code != 2 || e["code"] != "USAGE" || !strings.HasPrefix(e["message"].(string), tc.why) ||
			!strings.HasPrefix(usage, tc.syn) || j.stderr != "" {
			t.Errorf("%q --json: exit %d, %s, stderr %q", tc.args, j.code, j.stdout, j.stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "v.db")
	r := runCLI(t, db, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "followup ") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("--version: %d %q %q", r.code, r.stdout, r.stderr)
	}
	j := decode(t, runCLI(t, db, "--version", "--json"))
	v, _ := j["version"].(string)
	rev, hasRev := j["revision"].(string)
	if j["ok"] != true || v == "" || !hasRev || j["go"] != runtime.Version() ||
		!strings.HasPrefix(r.stdout, "followup "+v) || !strings.HasSuffix(r.stdout, runtime.Version()+")\n") {
		t.Fatalf("--version --json: %v\ntext: %q", j, r.stdout)
	}
	// A build in a git checkout names its commit, whether Go stamped a
	// pseudo-version (the default, -buildvcs=auto) or "devel" with the
	// revision.
	if rev != "" && !strings.Contains(r.stdout, rev[:12]) {
		t.Fatalf("--version names revision %s as %q", rev, r.stdout)
	}
}

// An empty --db (a script's unset variable) is a usage error, never the
// default database; an empty FOLLOWUP_DB counts as unset.
func TestEmptyDBIsNeverTheDefault(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	run := func(env []string, args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), append([]string{"XDG_DATA_HOME=" + data, "FOLLOWUP_PROVIDER=offline"}, env...)...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), errb.String()
		}
		return 0, errb.String()
	}
	for _, args := range [][]string{{"--db", "", "chats"}, {"--db=", "ask", "hi"}, {"pending", "--db", ""}} {
		if code, stderr := run([]string{"FOLLOWUP_DB=/nonexistent/never.db"}, args...); code != 2 || !strings.Contains(stderr, `"--db" flag: is empty`) {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) != 0 {
		t.Fatalf("the default data directory was touched: %v", entries)
	}
	if code, stderr := run([]string{"FOLLOWUP_DB="}, "chats"); code != 0 {
		t.Fatalf("empty FOLLOWUP_DB: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(data, "followup", "followup.db")); err != nil {
		t.Fatalf("an empty FOLLOWUP_DB is not the default: %v", err)
	}
}

// An unknown command names the nearest ones, a group's too, and so does
// help or man asked for one.
func TestUnknownCommandSuggests(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	for args, want := range map[string]string{
		"pendin":          `unknown command "pendin"; did you mean pending?`,
		"mcp lst":         `unknown command "mcp lst"; did you mean mcp list?`,
		"completion bahs": `unknown command "completion bahs"; did you mean completion bash?`,
		"help pendin":     `unknown command "pendin"; did you mean pending?`,
		"man mcp lst":     `unknown command "mcp lst"; did you mean mcp list?`,
	} {
		if r := runCLI(t, db, strings.Fields(args)...); r.code != 2 || !strings.HasPrefix(r.stderr, "followup: "+want+"\n") {
			t.Errorf("%s: exit %d, %q", args, r.code, r.stderr)
		}
	}
	// A switch set to false is a switch not given.
	if r := runCLI(t, db, "pending", "--json=false"); r.code != 0 || r.stdout != "no pending requests\n" {
		t.Errorf("--json=false: exit %d, %q", r.code, r.stdout)
	}
}

// The shell completes a request id with the questions waiting and a chat
// id (an argument or --chat) with the chats, each with its title, from
// the database named; a file argument with file names; completing on a
// database not there yet makes none.
func TestCompletionOffersIDs(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	sent := runCLI(t, db, "--json", "ask", "--no-wait", "Check deployment")
	var s struct{ ChatID, RunID string }
	json.Unmarshal([]byte(sent.stdout), &s)
	pending := runCLI(t, db, "--json", "pending")
	var p struct {
		Requests []struct{ ID, Title string }
	}
	if json.Unmarshal([]byte(pending.stdout), &p); s.ChatID == "" || len(p.Requests) != 1 {
		t.Fatalf("ask %q, pending %q", sent.stdout, pending.stdout)
	}
	r := p.Requests[0]
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"answer", ""}, r.ID + "\t" + r.Title + "\n:4\n"},
		{[]string{"cancel", "rq"}, r.ID + "\t" + r.Title + "\n:4\n"},
		{[]string{"archive", ""}, s.ChatID + "\tCheck deployment\n:4\n"},
		{[]string{"pending", "--chat", ""}, s.ChatID + "\tCheck deployment\n:4\n"},
		{[]string{"answer", r.ID, ""}, ":4\n"},
		{[]string{"ask", ""}, ":4\n"},
		{[]string{"validate-input", ""}, ":0\n"},
		{[]string{"unarchive", ""}, ":4\n"}, // no chat archived
	} {
		if got := runCLI(t, db, append([]string{"__complete"}, c.args...)...); got.stdout != c.want {
			t.Errorf("completing %q: %q, want %q", c.args, got.stdout, c.want)
		}
	}
	if a := runCLI(t, db, "archive", s.ChatID); a.code != 0 {
		t.Fatalf("archive: %d %s", a.code, a.stderr)
	}
	for cmd, want := range map[string]string{"archive": ":4\n", "unarchive": s.ChatID + "\tCheck deployment\n:4\n"} {
		if got := runCLI(t, db, "__complete", cmd, ""); got.stdout != want {
			t.Errorf("completing %s with the chat archived: %q, want %q", cmd, got.stdout, want)
		}
	}
	none := filepath.Join(t.TempDir(), "none.db")
	if got := runCLI(t, none, "__complete", "answer", ""); got.stdout != ":4\n" {
		t.Errorf("completing on no database: %q", got.stdout)
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("completing made a database")
	}
}

// followup completion bash prints a script bash accepts, which completes
// followup's commands; man prints a manual page.
func TestCompletionAndManPage(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	script := filepath.Join(t.TempDir(), "followup.bash")
	r := runCLI(t, db, "completion", "bash")
	if r.code != 0 || os.WriteFile(script, []byte(r.stdout), 0o600) != nil {
		t.Fatalf("completion bash: exit %d %s", r.code, r.stderr)
	}
	if out, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v %s", err, out)
	}
	// The script needs the bash-completion package's word splitter; a
	// stand-in here, for a machine without it.
	complete := exec.Command("bash", "-c", `_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
source "$1"; COMP_WORDS=("$2" pend); COMP_CWORD=1; COMP_LINE="$2 pend"; COMP_POINT=${#COMP_LINE}
__start_followup; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script, bin)
	if out, err := complete.Output(); err != nil || strings.TrimSpace(string(out)) != "pending" {
		t.Fatalf("completing pend: %v %q", err, out)
	}
	if h := runCLI(t, db, "completion", "--help"); h.code != 0 || !strings.Contains(h.stdout, "\n  bash ") || !strings.Contains(h.stdout, "\n  fish ") {
		t.Errorf("completion --help: exit %d\n%s", h.code, h.stdout)
	}
	for _, shell := range []string{"zsh", "fish"} {
		if r := runCLI(t, db, "completion", shell); r.code != 0 || !strings.Contains(r.stdout, "followup") {
			t.Errorf("completion %s: exit %d", shell, r.code)
		}
	}
	if m := runCLI(t, db, "man"); m.code != 0 || !strings.Contains(m.stdout, ".TH \"FOLLOWUP\" \"1\"") || !strings.Contains(m.stdout, "followup-answer(1)") {
		t.Errorf("man: exit %d\n%s", m.code, m.stdout)
	}
	if m := runCLI(t, db, "man", "answer"); m.code != 0 || !strings.Contains(m.stdout, "--values-json") {
		t.Errorf("man answer: exit %d\n%s", m.code, m.stdout)
	}
}
