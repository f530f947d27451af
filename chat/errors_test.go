package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"followup/forms"
	"followup/store"
)

func TestResultShapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   any
		want string
	}{
		{map[string]any{}, `{"ok":true}`},
		{map[string]any{"a": 1}, `{"ok":true,"a":1}`},
		{struct {
			X string `json:"x"`
		}{"y"}, `{"ok":true,"x":"y"}`},
	}
	for _, c := range cases {
		if got := string(OKJSON(c.in)); got != c.want {
			t.Errorf("OKJSON(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	var e struct {
		OK    bool   `json:"ok"`
		Error *Error `json:"error"`
	}
	if err := json.Unmarshal(OKJSON([]int{1}), &e); err != nil || e.OK || e.Error.Code != CodeInternal {
		t.Errorf("a non-object result: %+v %v", e, err)
	}
	json.Unmarshal(ErrorJSON(errorf(CodeNotFound, "no %s", "x")), &e)
	if e.OK || e.Error.Code != CodeNotFound || e.Error.Message != "no x" {
		t.Errorf("ErrorJSON = %+v", e)
	}
	if AsError(errors.New("boom")).Code != CodeInternal || CodeOf(nil) != "" {
		t.Error("AsError/CodeOf")
	}
}

func TestErrorsAreBounded(t *testing.T) {
	t.Parallel()
	many := make([]forms.Problem, 100_000)
	for i := range many {
		many[i] = forms.Problem{Path: "/x" + strings.Repeat("p", i%1000), Message: "unknown key " + strings.Repeat("m", i%2000)}
	}
	e := AsError(problemsError(CodeRequestInvalid, "the input request is invalid", many))
	ps := e.Details["problems"].([]forms.Problem)
	if len(ps) != MaxProblems || e.Details["more"] != 100_000-MaxProblems ||
		!strings.Contains(e.Message, "100000 problems; the first 50 are listed") {
		t.Fatalf("%d problems, more %v, message %q", len(ps), e.Details["more"], e.Message)
	}
	for _, p := range ps {
		if utf8.RuneCountInString(p.Path) > maxProblemPath || utf8.RuneCountInString(p.Message) > maxProblemMessage {
			t.Fatalf("a problem is not cut: %d/%d characters", len(p.Path), len(p.Message))
		}
	}
	if n := len(ErrorJSON(e)); n > 64<<10 {
		t.Fatalf("the error is %d bytes", n)
	}
	if len(many) != 100_000 {
		t.Fatal("the caller's problems were changed")
	}

	// A 100,000-character id is quoted cut short, with an ellipsis.
	id := "rq_" + strings.Repeat("a", 100_000)
	nf := AsError(errorf(CodeNotFound, "no request with id %q", id))
	if len(nf.Message) > 300 || !strings.Contains(nf.Message, `"rq_aaa`) || !strings.Contains(nf.Message, `a…"`) {
		t.Fatalf("NOT_FOUND says %d bytes: %.80q", len(nf.Message), nf.Message)
	}
	// A requestKey may be 128 characters: it is quoted whole.
	key := strings.Repeat("k", 128)
	if m := errorf(CodeRequestKeyConfl, "requestKey %q is used", key).Message; !strings.Contains(m, key) {
		t.Fatalf("a whole requestKey was cut: %s", m)
	}
	// An error built anywhere, unexpected ones included, is bounded too.
	long := AsError(errors.New(strings.Repeat("é", 10_000)))
	if utf8.RuneCountInString(long.Message) != maxMessage || !strings.HasSuffix(long.Message, "…") {
		t.Fatalf("INTERNAL message of %d characters", utf8.RuneCountInString(long.Message))
	}
}

// forms stops listing a hostile declaration's problems and counts the rest
// in a last problem; the bound folds that count into details.more.
func TestDeclarationProblemsAreCounted(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"requestKey":"k","reason":"r","source":{"kind":"dynamic","definition":{"title":"t","fields":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"f%d","type":"nope"}`, i)
	}
	b.WriteString(`]}}}`)
	_, all := forms.ParseDeclaration(json.RawMessage(b.String()), nil)
	total := len(all)
	if n := formsLeftOut(all); n > 0 {
		total += n - 1
	}
	if total != 1001 { // 1,000 unknown types and the 32-field limit
		t.Fatalf("forms found %d problems, want 1001", total)
	}
	e := AsError(problemsError(CodeRequestInvalid, "the input request is invalid", all))
	ps := e.Details["problems"].([]forms.Problem)
	if total <= MaxProblems || len(ps) != MaxProblems || e.Details["more"] != total-MaxProblems {
		t.Fatalf("%d problems in all; listed %d, more %v", total, len(ps), e.Details["more"])
	}
	for _, p := range ps {
		if strings.Contains(p.Message, "more problems") {
			t.Fatalf("the count is listed as a problem: %v", p)
		}
	}
}

func TestDatabaseErrorsHaveTheirOwnCodes(t *testing.T) {
	t.Parallel()
	e := AsError(fmt.Errorf("sending: %w", &store.ReadOnlyError{Path: "/x/f.db", Reason: "it is on a read-only file system"}))
	if e.Code != CodeDatabaseReadOnly || !strings.Contains(e.Message, "/x/f.db") || e.Details["path"] != "/x/f.db" {
		t.Fatalf("%+v", e)
	}
	_, err := Open(context.Background(), Options{DBPath: t.TempDir()})
	if e := AsError(err); e.Code != CodeDatabaseUnavailable || e.Details["path"] == nil ||
		!strings.Contains(e.Message, "it is a directory") {
		t.Fatalf("opening a directory: %+v", e)
	}
}

// An Open that found the database locked by another process past the busy
// timeout is DATABASE_BUSY (try again), not DATABASE_UNAVAILABLE, and
// still names the file.
func TestOpenWhileLockedIsBusy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f.db")
	holder, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	lock, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, busy := other.ExecContext(ctx, "BEGIN EXCLUSIVE")
	if !store.IsBusy(busy) {
		t.Fatalf("the second lock = %v", busy)
	}
	e := AsError(&store.OpenError{Path: path, Reason: busy.Error(), Err: busy})
	if e.Code != CodeDatabaseBusy || e.Details["path"] != path {
		t.Fatalf("%+v", e)
	}
}
