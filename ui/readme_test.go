package ui

import (
	"os"
	"strings"
	"testing"
)

// The README's key table names the screen's keys: every key it lists is
// bound, and every key that applies outside a dialog is listed.
func TestREADMEKeyTableMatchesTheBindings(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| key | does |"):
			in = true
		case in && !strings.HasPrefix(line, "|"):
			in = false
		case in && !strings.HasPrefix(line, "|---"):
			cells := strings.Split(line, "|")
			for _, k := range strings.Split(cells[1], "/") {
				listed[strings.Trim(strings.TrimSpace(k), "`")] = true
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal("README.md has no | key | does | table")
	}
	keys := defaultKeys()
	// A help key may name a pair: "pgup/pgdn".
	names := func(kb []string, help string) []string {
		return append(append([]string{help}, strings.Split(help, "/")...), kb...)
	}
	bound := map[string]bool{}
	for _, sec := range keys.sections() {
		for _, kb := range sec.Keys {
			for _, n := range names(kb.Keys(), kb.Help().Key) {
				bound[n] = true
			}
		}
	}
	for k := range listed {
		if !bound[k] {
			t.Errorf("README lists %q, which no binding has", k)
		}
	}
	for _, sec := range keys.sections()[:4] { // anywhere, composer, a waiting question, form
		for _, kb := range sec.Keys {
			found := false
			for _, n := range names(kb.Keys(), kb.Help().Key) {
				found = found || listed[n]
			}
			if !found {
				t.Errorf("README's key table does not list %s (%s: %s)", kb.Help().Key, sec.Title, kb.Help().Desc)
			}
		}
	}
}
