package cli_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
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

// The words of a failed run and of --no-wait: a failed run's text ends
// with the command that tries it again; --no-wait's help says what the
// model is told.
func TestFailedRunSaysHowToRetry(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"invalid api key","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "f.db")
	cmd := exec.Command(bin, "--db", db, "ask", "hi")
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=openai", "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_API_KEY=k")
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	run, _, _ := strings.Cut(strings.TrimPrefix(lines[0], "run "), " ")
	if err == nil || len(lines) != 2 || lines[1] != "followup resume "+run+" tries it again" {
		t.Fatalf("a failed run: %v\n%s", err, out)
	}
	if h := runCLI(t, db, "help", "ask"); !strings.Contains(strings.Join(strings.Fields(h.stdout), " "), "the model is told the call was interrupted") {
		t.Fatalf("--no-wait's help:\n%s", h.stdout)
	}
}

// Broken JSON in --values-json or a validate-input file is told by line
// and column, in words.
func TestBrokenJSONSaysWhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "j.db")
	if r := runCLI(t, db, "answer", "rq_0123456789abcdef", "--values-json", `{"a":1 "b":2}`); r.code != 2 ||
		!strings.HasPrefix(r.stderr, `followup: --values-json is not a JSON object of values: not valid JSON at line 1, column 8: found '"' after a value, where "," or "}" should be`+"\n") {
		t.Errorf("answer: exit %d, %q", r.code, r.stderr)
	}
	r := runShell(t, dir, db, `printf '{\n  "requestKey": "k",\n  "source": {,\n}' | followup validate-input -`)
	if r.code != 1 || !strings.Contains(r.stderr, `/: not valid JSON at line 3, column 14: found ',' where a quoted name or "}" should be`) {
		t.Errorf("validate-input: exit %d, %q", r.code, r.stderr)
	}
}
