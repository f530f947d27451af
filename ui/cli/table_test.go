package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// Every entry is complete, and its example is a command line the parser
// and the checks accept: the help cannot show one that does not work.
func TestTableEntriesAreCompleteAndExamplesParse(t *testing.T) {
	seen := map[string]bool{}
	var ran string
	table := append([]Command{}, commands...)
	for i := range table {
		table[i].NeedsDB = false
		table[i].Run = func(ctx context.Context, c *Call) error { ran = c.Args.Command; return nil }
	}
	withTable(t, table, func() {
		for _, c := range commands {
			if c.Name == "" || c.Summary == "" || c.Example == "" || c.Run == nil {
				t.Errorf("%q: name, summary, example and run are all needed", c.Name)
			}
			if seen[c.Name] {
				t.Errorf("%q is in the table twice", c.Name)
			}
			seen[c.Name] = true
			argv := splitExample(t, c.Example)
			if argv[0] != "followup" {
				t.Errorf("%s: example %q does not start with followup", c.Name, c.Example)
				continue
			}
			ran = ""
			var errb bytes.Buffer
			if code := Main(argv[1:], strings.NewReader(""), io.Discard, &errb, nil); code != 0 || ran != c.Name {
				t.Errorf("%s: example %q: ran %q, exit %d %s", c.Name, c.Example, ran, code, errb.String())
			}
		}
	})
}

// A flag name means the same kind of flag (a switch, or one with a value)
// in every command: the parser reads flags before it knows the command.
func TestFlagKindsAgree(t *testing.T) {
	kind, global := map[string]bool{}, map[string]bool{}
	for _, f := range globalFlags {
		kind[f.Name], global[f.Name] = f.Value != "", true
	}
	for _, c := range commands {
		for _, f := range c.Flags {
			if k, ok := kind[f.Name]; ok && k != (f.Value != "") {
				t.Errorf("%s: --%s is a switch in one place and takes a value in another", c.Name, f.Name)
			}
			if global[f.Name] {
				t.Errorf("%s: --%s is already global", c.Name, f.Name)
			}
			if f.Help == "" {
				t.Errorf("%s: --%s has no help", c.Name, f.Name)
			}
			kind[f.Name] = f.Value != ""
		}
	}
}

// withTable runs f with the command table replaced by cs.
func withTable(t *testing.T, cs []Command, f func()) {
	saved := commands
	commands = cs
	defer func() { commands = saved }()
	f()
}

// One entry makes a command: parsed, checked, listed in the usage, with
// its own help, and dispatched — a two-word one of a group too.
func TestOneEntryMakesACommand(t *testing.T) {
	var ran []string
	run := func(ctx context.Context, c *Call) error {
		ran = append(ran, c.Args.Command+":"+strings.Join(c.Args.Positional, ",")+":"+c.Flag("level"))
		c.OK(map[string]any{}, func(w io.Writer) { io.WriteString(w, "done\n") })
		return nil
	}
	table := []Command{
		{Name: "grp list", Summary: "list the things", Example: "followup grp list", Run: run},
		{Name: "grp show", Args: []string{"THING"}, Summary: "show one thing", Example: "followup grp show x", Run: run,
			Flags: []Flag{{Name: "level", Value: "N", Help: "how much"}}},
		{Name: "pick", Args: []string{"ID"}, Summary: "pick one", Example: "followup pick x --left", Run: run,
			Flags: []Flag{{Name: "left", Choice: "side", Help: "the left"}, {Name: "right", Choice: "side", Help: "the right"}}},
		{Name: "help", Args: []string{"[COMMAND...]"}, Summary: "usage", Example: "followup help", Run: help},
	}
	withTable(t, table, func() {
		main := func(args ...string) (int, string, string) {
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb, nil)
			return code, out.String(), errb.String()
		}
		if code, out, _ := main("grp", "show", "x", "--level", "3"); code != 0 || out != "done\n" {
			t.Fatalf("grp show: %d %q", code, out)
		}
		if code, _, _ := main("--level=2", "grp", "list"); code != 2 {
			t.Errorf("grp list took --level: %d", code)
		}
		if code, _, errs := main("grp"); code != 2 || !strings.Contains(errs, "list, show") {
			t.Errorf("grp alone: %d %q", code, errs)
		}
		if code, out, _ := main("help", "grp"); code != 0 || !strings.Contains(out, "\n  show ") || !strings.Contains(out, "show one thing") {
			t.Errorf("help grp: %d %q", code, out)
		}
		if code, out, _ := main("help", "grp", "show"); code != 0 || !strings.Contains(out, "Usage:\n  followup grp show THING [--level N]") || !strings.Contains(out, "how much") {
			t.Errorf("help grp show: %d %q", code, out)
		}
		_, flagHelp, _ := main("grp", "show", "--help")
		if _, cmdHelp, _ := main("help", "grp", "show"); flagHelp != cmdHelp {
			t.Errorf("grp show --help and help grp show differ:\n%s\n%s", flagHelp, cmdHelp)
		}
		if code, _, errs := main("pick", "x"); code != 2 || !strings.Contains(errs, "--left|--right") {
			t.Errorf("pick without a side: %d %q", code, errs)
		}
		// A switch set false is not given: it picks no side.
		if code, _, errs := main("pick", "x", "--left=false"); code != 2 || !strings.Contains(errs, "pick needs --left|--right") {
			t.Errorf("pick --left=false: %d %q", code, errs)
		}
		if code, _, errs := main("pick", "x", "--left", "--right"); code != 2 || !strings.Contains(errs, "none of the others can be") {
			t.Errorf("pick with both: %d %q", code, errs)
		}
		if code, _, _ := main("pick", "x", "--right"); code != 0 {
			t.Errorf("pick --right: %d", code)
		}
		if code, out, _ := main("help"); code != 0 || !strings.Contains(out, "\n  grp ") || !strings.Contains(out, "\n  pick ") {
			t.Errorf("help: %d %q", code, out)
		}
	})
	want := []string{"grp show:x:3", "pick:x:"}
	if strings.Join(ran, " ") != strings.Join(want, " ") {
		t.Errorf("ran %v, want %v", ran, want)
	}
}

func splitExample(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	quote := rune(0)
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// --version says what the toolchain recorded: the module version when
// there is one, else the commit (short), its time and +dirty for a
// modified checkout, else devel; always the Go toolchain.
func TestBuildOfBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-03-01T09:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		info       debug.BuildInfo
		want, text string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0", "followup v1.4.0 (go1.26.8)\n"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "devel", "followup devel (go1.26.8)\n"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20260301090000-0123456789ab+dirty"}, Settings: vcs},
			"v0.0.0-20260301090000-0123456789ab+dirty", "followup v0.0.0-20260301090000-0123456789ab+dirty (go1.26.8)\n"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "devel 0123456789ab+dirty",
			"followup devel 0123456789ab+dirty (2026-03-01T09:00:00Z, go1.26.8)\n"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs[:3]}, "devel 0123456789ab",
			"followup devel 0123456789ab (2026-03-01T09:00:00Z, go1.26.8)\n"},
	} {
		b := buildOf(&tc.info)
		var text strings.Builder
		b.text(&text)
		if b.String() != tc.want || text.String() != tc.text {
			t.Errorf("buildOf = %q, text %q; want %q, %q", b.String(), text.String(), tc.want, tc.text)
		}
	}
	b := buildOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs})
	if b.Revision != "0123456789abcdef0123456789abcdef01234567" || b.Time != "2026-03-01T09:00:00Z" || !b.Modified || b.Go != "go1.26.8" {
		t.Errorf("buildOf = %+v", b)
	}
}

// docs/cli.md documents every command of the table: a new command needs
// its section there (a heading that names `followup NAME`).
func TestEveryCommandIsDocumented(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "### ") {
			headings = append(headings, line)
		}
	}
	for _, c := range commands {
		found := false
		for _, h := range headings {
			found = found || strings.Contains(h, "`followup "+c.Name+" ") || strings.Contains(h, "`followup "+c.Name+"`")
		}
		if !found {
			t.Errorf("docs/cli.md has no section for followup %s", c.Name)
		}
	}
}

// help lists every command under its group, one line each, in the help
// of followup or of its group ("mcp"): a group's commands stand together,
// and no summary wraps.
func TestUsageListsEveryCommandOnOneLine(t *testing.T) {
	seen := map[string]bool{}
	for i, c := range commands {
		if c.Group == "" {
			t.Errorf("%s has no group", c.Name)
		}
		if i > 0 && c.Group != commands[i-1].Group && seen[c.Group] {
			t.Errorf("%s: group %q is split in the table", c.Name, c.Group)
		}
		seen[c.Group] = true
		words := strings.Fields(c.Name)
		var b strings.Builder
		if code := Main(append([]string{"help"}, words[:len(words)-1]...), nil, &b, io.Discard, nil); code != 0 {
			t.Fatalf("help for %s: exit %d", c.Name, code)
		}
		found := false
		for _, l := range strings.Split(b.String(), "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == words[len(words)-1] && strings.HasPrefix(l, "  ") {
				found = true
				if !strings.HasSuffix(l, " "+c.Summary) || len([]rune(l)) > 80 {
					t.Errorf("%s is not one line of the usage: %q", c.Name, l)
				}
			}
		}
		if !found {
			t.Errorf("the usage does not list %s", c.Name)
		}
	}
	for _, name := range []string{"mcp list", "mcp serve", "approve", "deny"} {
		if lookup(name) == nil || lookup(name).Group != groupMCP {
			t.Errorf("%s is not listed with the MCP commands", name)
		}
	}
}
