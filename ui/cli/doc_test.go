package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docExample is one command line of a ```text block of docs/cli.md
// ("$ followup …") and the output printed under it.
type docExample struct {
	line   string
	output string
}

func cliDocExamples(t *testing.T) []docExample {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	for _, m := range regexp.MustCompile("(?s)```text\n(.*?)```").FindAllStringSubmatch(string(raw), -1) {
		var cur *docExample
		var body []string
		flush := func() {
			if cur != nil {
				cur.output = strings.TrimRight(strings.Join(body, "\n"), "\n")
				out = append(out, *cur)
			}
		}
		for _, l := range strings.Split(strings.TrimRight(m[1], "\n"), "\n") {
			if rest, ok := strings.CutPrefix(l, "$ "); ok {
				flush()
				cur, body = &docExample{line: rest}, nil
			} else if cur != nil {
				body = append(body, l)
			}
		}
		flush()
	}
	return out
}

// docInputRequest is the ```json input block of docs/input-requests.md
// whose requestKey is key.
func docInputRequest(t *testing.T, key string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "input-requests.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```json input[^\n]*\n(.*?)\n```").FindAllStringSubmatch(string(raw), -1) {
		var d struct {
			RequestKey string `json:"requestKey"`
		}
		if json.Unmarshal([]byte(m[1]), &d) == nil && d.RequestKey == key {
			return m[1]
		}
	}
	t.Fatalf("docs/input-requests.md has no input request %q", key)
	return ""
}

// docStep is one step of the story the examples tell. Exactly one of its
// fields says what it does.
type docStep struct {
	// example runs a command line of docs/cli.md and compares what it
	// prints with the output printed under it.
	example string
	// setup runs a command the page does not show, so that an example's
	// ids exist; binds are the page's ids its output gives, taken in order
	// from the ids it prints of the same kind.
	setup string
	binds []string
	// printed runs the command the previous output printed after this
	// prefix, as printed.
	printed string
	// file writes the docs/input-requests.md example of this request key
	// into the file named by name.
	file, name string
}

// The examples that need an MCP peer, out of the story: those that need
// only the everything server run in TestCLIDocMCPExamplesRunAsPrinted; the
// others' commands are covered by the MCP tests (mcphost_test.go, serve
// tests, and ui/mcpserve).
var docSkipped = map[string]string{
	`followup answer rq_5c0d1e9a7b3f2468 --values-json '{"env":"staging"}'`: "needs an MCP client asking through followup mcp serve",
	`followup approve ap_b63a58e2f6f0c3f9`:                                  "needs an MCP server's tool call",
	`followup mcp list`:                                                     "shows a configuration of its own (npx, a disabled server)",
	`followup mcp resources`:                                                docEverything,
	`followup mcp prompts`:                                                  docEverything,
	`followup mcp prompt everything:args-prompt --arg city=Paris`:           docEverything,
}

const docEverything = "needs the everything server"

// The story: older chats first (a cancelled question, a stopped task), then
// the trip, then the deployment, so chats lists them in the page's order.
var docStory = []docStep{
	{example: `followup answer rq_123`},
	{setup: `followup ask "Summarise the release notes"`, binds: []string{"rq_0e1ec5a58072d786"}},
	{example: `followup cancel rq_0e1ec5a58072d786`},
	{setup: `followup ask "Deploy the docs site"`, binds: []string{"run_212ff527b51f9c31"}},
	{example: `followup stop run_212ff527b51f9c31`},
	{setup: `followup ask "Plan a trip"`, binds: []string{"ch_9bf5c46338191a99", "rq_e868e2989c1c530e"}},
	{example: `followup answer rq_e868e2989c1c530e --values-json '{"destination":"Oslo","travelers":3}'`},
	{example: `followup pending`},
	{example: `followup answer rq_e868e2989c1c530e --values-json '{"start":"2026-05-01","transport":"train"}' --digest 1824aa686f29`},
	{example: `followup ask "Check deployment"`},
	{example: `followup resume run_323fcaaf39df9e0b`},
	{example: `followup ask "use staging" --chat ch_9ebd8f3687214d01`},
	{example: `followup decide prop_828df633e998489f --accept`},
	{printed: "send it with: "},
	{example: `followup show rq_284071832e8b4690`},
	{example: `followup inspect run_323fcaaf39df9e0b`},
	{example: `followup chats --limit 2`},
	{example: `followup archive ch_9bf5c46338191a99`},
	{example: `followup unarchive ch_9bf5c46338191a99`},
	{file: "trip-details-1", name: "request.json"},
	{file: "trip-details-2", name: "trip-template.json"},
	{example: `followup validate-input request.json`},
	{example: `echo '{"requestKey":"k"}' | followup validate-input -`},
	{example: `followup validate-input trip-template.json`},
	{setup: `mkdir -p .agents/skills/pdf .claude/skills/Notes && printf -- '---\nname: pdf\ndescription: Work with PDF files.\n---\nUse pdftotext.\n' >.agents/skills/pdf/SKILL.md && printf -- '---\nname: Notes\ndescription: x\n---\n' >.claude/skills/Notes/SKILL.md`},
	{example: `followup skills`},
}

var docID = regexp.MustCompile(`\b(ch|run|rq|prop|ap|cmd|ss)_[0-9a-f]{16}\b`)

// docRun runs one command line in bash, as a user would paste it, on the
// story's database; stdout and stderr in the order they were written.
func docRun(t *testing.T, dir, line string, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FOLLOWUP_") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FOLLOWUP_DB="+filepath.Join(dir, "followup.db"), "FOLLOWUP_PROVIDER=offline",
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"))
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// docPattern is the regular expression an example's printed output
// stands for: the page's ids stand for the ones this database made (known
// ones as themselves, new ones captured: names[i] is group i+1's page id),
// a line "…" for any lines, "…" in a line for any text, 13 digits (a
// time in milliseconds, in a cursor) for any 13 digits, and a local time
// (2026-05-01 09:00) for any.
func docPattern(expected string, ids map[string]string) (*regexp.Regexp, []string) {
	var b strings.Builder
	var names []string
	token := regexp.MustCompile(docID.String() + `|…|\b[0-9]{13}\b|\b[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}\b`)
	b.WriteString(`^`)
	for _, l := range strings.Split(expected, "\n") {
		if strings.TrimSpace(l) == "…" {
			b.WriteString(`(?:.*\n)*?`)
			continue
		}
		at := 0
		for _, m := range token.FindAllStringIndex(l, -1) {
			b.WriteString(regexp.QuoteMeta(l[at:m[0]]))
			tok := l[m[0]:m[1]]
			switch {
			case tok == "…":
				b.WriteString(`.*?`)
			case docID.MatchString(tok) && ids[tok] != "":
				b.WriteString(regexp.QuoteMeta(ids[tok]))
			case docID.MatchString(tok):
				b.WriteString(`(` + strings.SplitN(tok, "_", 2)[0] + `_[0-9a-f]{16})`)
				names = append(names, tok)
			case len(tok) == 13:
				b.WriteString(`[0-9]{13}`)
			default:
				b.WriteString(`[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}`)
			}
			at = m[1]
		}
		b.WriteString(regexp.QuoteMeta(l[at:]) + `\n`)
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String()), names
}

// bind records that the page's id stands for real; one page id is one
// real id and the other way round.
func bind(t *testing.T, ids map[string]string, page, real string) {
	t.Helper()
	if ids[page] != "" && ids[page] != real {
		t.Errorf("%s stands for both %s and %s", page, ids[page], real)
	}
	for p, r := range ids {
		if r == real && p != page {
			t.Errorf("%s stands for %s, and so does %s", real, p, page)
		}
	}
	ids[page] = real
}

// bindInOrder binds each page id to the first id of its kind in out that
// nothing stands for yet: the fallback when an output differs from the
// page, so the story goes on and every difference is reported at once.
func bindInOrder(t *testing.T, ids map[string]string, pages []string, out string) {
	t.Helper()
	taken := map[string]bool{}
	for _, r := range ids {
		taken[r] = true
	}
	for _, p := range pages {
		if ids[p] != "" {
			continue
		}
		for _, r := range docID.FindAllString(out, -1) {
			if !taken[r] && strings.SplitN(r, "_", 2)[0] == strings.SplitN(p, "_", 2)[0] {
				bind(t, ids, p, r)
				taken[r] = true
				break
			}
		}
	}
}

// Every example of docs/cli.md runs as printed on a fresh database and
// prints what the page shows; the few that need an MCP peer are named in
// docSkipped. A new example must join the story (or that list).
func TestCLIDocExamplesRunAsPrinted(t *testing.T) {
	t.Parallel()
	examples := map[string]docExample{}
	for _, ex := range cliDocExamples(t) {
		if _, dup := examples[ex.line]; dup && ex.output != examples[ex.line].output {
			t.Errorf("docs/cli.md runs %q twice with different outputs", ex.line)
		}
		examples[ex.line] = ex
	}
	told := map[string]bool{}
	for _, s := range docStory {
		if s.example != "" {
			told[s.example] = true
			if _, ok := examples[s.example]; !ok {
				t.Errorf("docs/cli.md has no example %q", s.example)
			}
		}
	}
	for line := range examples {
		if _, skipped := docSkipped[line]; !skipped && !told[line] {
			t.Errorf("the example %q of docs/cli.md is not run: add it to docStory", line)
		}
	}
	for line := range docSkipped {
		if _, ok := examples[line]; !ok {
			t.Errorf("docSkipped names %q, which docs/cli.md does not show", line)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	dir := t.TempDir()
	ids := map[string]string{}
	resolve := func(line string) string {
		return docID.ReplaceAllStringFunc(line, func(p string) string {
			if ids[p] == "" {
				t.Fatalf("%q names %s before any output gave it", line, p)
			}
			return ids[p]
		})
	}
	last := ""
	for _, s := range docStory {
		switch {
		case s.file != "":
			if err := os.WriteFile(filepath.Join(dir, s.name), []byte(docInputRequest(t, s.file)), 0o600); err != nil {
				t.Fatal(err)
			}
		case s.setup != "":
			out, code := docRun(t, dir, s.setup)
			if code != 0 {
				t.Fatalf("%s exited %d:\n%s", s.setup, code, out)
			}
			bindInOrder(t, ids, s.binds, out)
			last = out
		case s.printed != "":
			i := strings.Index(last, "\n"+s.printed)
			if i < 0 {
				t.Fatalf("the output before prints no %q:\n%s", s.printed, last)
			}
			line, _, _ := strings.Cut(last[i+1+len(s.printed):], "\n")
			out, code := docRun(t, dir, line)
			if code != 0 {
				t.Errorf("the printed command %s exited %d:\n%s", line, code, out)
			}
			last = out
		default:
			ex := examples[s.example]
			out, code := docRun(t, dir, resolve(ex.line))
			re, names := docPattern(ex.output, ids)
			if m := re.FindStringSubmatch(strings.TrimRight(out, "\n") + "\n"); m != nil {
				for i, p := range names {
					bind(t, ids, p, m[i+1])
				}
			} else {
				t.Errorf("$ %s\nprints\n%s\ndocs/cli.md shows\n%s", ex.line, out, ex.output)
				bindInOrder(t, ids, docID.FindAllString(ex.output, -1), out)
			}
			// An example that prints an error exits 1 or 2; any other exits 0.
			if failed := strings.Contains("\n"+ex.output, "\nfollowup: "); failed != (code != 0) {
				t.Errorf("$ %s exited %d", ex.line, code)
			}
			last = out
		}
	}
}

// The examples that need only the everything server run against it as
// printed, on a fresh database.
func TestCLIDocMCPExamplesRunAsPrinted(t *testing.T) {
	t.Parallel()
	dir, config := t.TempDir(), everythingConfig(t, "")
	for _, ex := range cliDocExamples(t) {
		if docSkipped[ex.line] != docEverything {
			continue
		}
		out, code := docRun(t, dir, ex.line, "FOLLOWUP_MCP_CONFIG="+config, "XDG_STATE_HOME="+dir)
		if re, _ := docPattern(ex.output, nil); code != 0 || !re.MatchString(strings.TrimRight(out, "\n")+"\n") {
			t.Errorf("$ %s\nexits %d and prints\n%s\ndocs/cli.md shows\n%s", ex.line, code, out, ex.output)
		}
	}
}
