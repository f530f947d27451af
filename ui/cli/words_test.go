package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
	"followup/forms"
	"followup/ui/cli"
)

func ip(n int) *int { return &n }

// Every CLI message that counts something agrees with its number: one
// field, one argument, one character — never "field(s)".
func TestCountsAgreeWithTheirNumber(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	var said []string
	check := func(what, text, want string) {
		t.Helper()
		said = append(said, text)
		if !strings.Contains(text, want) {
			t.Errorf("%s says %q, want %q in it", what, text, want)
		}
	}
	r := runCLI(t, db, "chats", "extra")
	check("an extra argument", r.stderr, `chats takes no arguments, got 1 argument: "extra"`)
	r = runCLI(t, db, "show", "a", "b")
	check("two extra arguments", r.stderr, `got 2 arguments: "a" "b"`)

	one := `{"requestKey":"k-1","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"a","type":"text"}]}}}`
	r = runShell(t, dir, db, "echo '"+one+"' | followup validate-input -")
	check("validate-input", r.stdout, "valid: k-1 asks 1 of 1 field\n")

	item := chat.RequestItem{Owner: chat.Owner{Kind: chat.OwnerAgent}}
	for _, tc := range []struct {
		f    forms.Field
		want string
	}{
		{forms.Field{Name: "code", Type: forms.Text, MaxLength: ip(1)}, "at most 1 character,"},
		{forms.Field{Name: "code", Type: forms.Text, MinLength: ip(1)}, "at least 1 character,"},
		{forms.Field{Name: "code", Type: forms.Text, MinLength: ip(2), MaxLength: ip(2)}, "exactly 2 characters,"},
		{forms.Field{Name: "pick", Type: forms.Multiselect, MinItems: ip(1), MaxItems: ip(1),
			Options: []forms.Option{{Value: "a"}, {Value: "b"}}}, "exactly 1 choice,"},
		{forms.Field{Name: "pick", Type: forms.Multiselect, MaxItems: ip(2),
			Options: []forms.Option{{Value: "a"}, {Value: "b"}}}, "at most 2 choices,"},
	} {
		check("pending's line of "+tc.f.Name, cli.FieldLineForTest(item, tc.f), tc.want)
	}
	for _, s := range said {
		if strings.Contains(s, "(s)") {
			t.Errorf("%q", s)
		}
	}
}
