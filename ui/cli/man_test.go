package cli

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

var updateMan = flag.Bool("update-man", false, "write ui/cli/man again from the command table")

// TestManPagesAreCurrent makes the manual pages from the command tree, as
// `followup man` would print them, and fails when the pages in ui/cli/man
// differ (the first line, which holds the date they were made, aside), or
// when a page is there for a command that is gone. With -update-man it
// writes them.
func TestManPagesAreCurrent(t *testing.T) {
	root := newRoot(Env{}, []string{"man"}, func(*cobra.Command, *Command, Args) error { return nil })
	made := t.TempDir()
	for _, cmd := range namable(root) {
		f, err := os.Create(filepath.Join(made, strings.ReplaceAll(cmd.CommandPath(), " ", "-")+".1"))
		if err != nil {
			t.Fatal(err)
		}
		err = doc.GenMan(cmd, &doc.GenManHeader{Source: "followup", Manual: "followup manual"}, f)
		if err = cmp.Or(err, f.Close()); err != nil {
			t.Fatal(err)
		}
	}
	if *updateMan {
		os.RemoveAll("man")
		if err := os.CopyFS("man", os.DirFS(made)); err != nil {
			t.Fatal(err)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(made, "*.1"))
	kept, _ := filepath.Glob(filepath.Join("man", "*.1"))
	if len(pages) != len(kept) {
		t.Errorf("ui/cli/man has %d pages, the command tree makes %d; go test ./ui/cli -run TestManPagesAreCurrent -update-man", len(kept), len(pages))
	}
	body := func(path string) string {
		b, _ := os.ReadFile(path)
		_, rest, _ := strings.Cut(strings.TrimPrefix(string(b), ".nh\n"), "\n")
		return rest
	}
	for _, p := range pages {
		name := filepath.Base(p)
		if body(p) != body(filepath.Join("man", name)) {
			t.Errorf("ui/cli/man/%s is not what the command table makes now; go test ./ui/cli -run TestManPagesAreCurrent -update-man", name)
		}
	}
}

// namable is every command `followup man COMMAND` can name: the whole tree
// but hidden commands. doc.GenManTree leaves out the help command (cobra
// counts it unavailable), and `followup man help` is one a user names.
func namable(cmd *cobra.Command) []*cobra.Command {
	if cmd.Hidden {
		return nil
	}
	all := []*cobra.Command{cmd}
	for _, c := range cmd.Commands() {
		all = append(all, namable(c)...)
	}
	return all
}

// TestManNamesEveryCommand: `followup man` prints a page for every command
// the tree has, `help` and the completion scripts' commands included.
func TestManNamesEveryCommand(t *testing.T) {
	root := newRoot(Env{}, []string{"man"}, func(*cobra.Command, *Command, Args) error { return nil })
	for _, cmd := range namable(root) {
		path := strings.Fields(cmd.CommandPath())[1:]
		var out bytes.Buffer
		code := run(context.Background(), append([]string{"man"}, path...), Env{Stdout: &out, Stderr: io.Discard}, nil)
		title := `.TH "` + strings.ToUpper(strings.ReplaceAll(cmd.CommandPath(), " ", "-")) + `" "1"`
		if code != 0 || !strings.Contains(out.String(), title) {
			t.Errorf("followup man %s: exit %d, %.80q", strings.Join(path, " "), code, out.String())
		}
	}
}
