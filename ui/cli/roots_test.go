package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRootFlags: the roots declared to MCP servers are the working directory, each
// --root (repeatable, made absolute) and then the config's; a --root that is not a
// directory is refused.
func TestRootFlags(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcp.json")
	os.WriteFile(cfgPath, []byte(`{"roots": ["/from/config"], "mcpServers": {}}`), 0o600)
	parse := func(argv ...string) Args {
		var got Args
		root := newRoot(Env{}, argv, func(_ *cobra.Command, _ *Command, a Args) error { got = a; return nil })
		root.SetArgs(argv)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	t.Chdir(dir)
	o, err := mcpOptions(parse("--mcp-config", cfgPath, "--root", "/tmp", "--root", "sub/.."))
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if got, want := strings.Join(o.Config.Roots, ","), wd+",/tmp,"+wd+",/from/config"; got != want {
		t.Errorf("roots %s, want %s", got, want)
	}
	if _, err := mcpOptions(parse("--mcp-config", cfgPath, "--root", cfgPath)); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as --root: %v", err)
	}
}
