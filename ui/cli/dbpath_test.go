package cli

import (
	"os/user"
	"path/filepath"
	"testing"
)

// Without a usable HOME the default database is the password file's home,
// never a path relative to wherever the command runs.
func TestDefaultDatabaseIsNeverRelative(t *testing.T) {
	t.Setenv("FOLLOWUP_DB", "")
	t.Setenv("XDG_DATA_HOME", "")
	want := ""
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		want = filepath.Join(u.HomeDir, ".local", "share", "followup", "followup.db")
	}
	for _, home := range []string{"", "relative/home", "."} {
		t.Setenv("HOME", home)
		got, err := DBPath("")
		switch {
		case want == "" && err == nil:
			t.Errorf("HOME=%q: %q, want an error asking for --db", home, got)
		case want != "" && (err != nil || got != want):
			t.Errorf("HOME=%q: %q, %v; want %q", home, got, err, want)
		}
	}
	t.Setenv("HOME", "/home/someone")
	if got, err := DBPath(""); err != nil || got != "/home/someone/.local/share/followup/followup.db" {
		t.Errorf("HOME=/home/someone: %q, %v", got, err)
	}
	t.Setenv("XDG_DATA_HOME", "rel/data")
	if got, err := DBPath(""); err != nil || got != "/home/someone/.local/share/followup/followup.db" {
		t.Errorf("a relative XDG_DATA_HOME was not ignored: %q, %v", got, err)
	}
}
