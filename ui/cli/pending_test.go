package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/cli"
)

// pendingIDs runs `pending` (with args) and returns the listed ids, from
// JSON or from the text output.
func pendingIDs(t *testing.T, db string, asJSON bool, args ...string) ([]string, []map[string]any) {
	t.Helper()
	if !asJSON {
		r := runCLI(t, db, append([]string{"pending"}, args...)...)
		if r.code != 0 {
			t.Fatalf("pending: exit %d, %s", r.code, r.stderr)
		}
		ids := []string{}
		for _, line := range strings.Split(r.stdout, "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "pending" {
				ids = append(ids, f[1])
			}
		}
		return ids, nil
	}
	r := runCLI(t, db, append([]string{"pending", "--json"}, args...)...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, `{"ok":true,"requests":[`) || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("pending --json: exit %d, stdout %.80q", r.code, r.stdout)
	}
	var reqs []map[string]any
	for _, x := range decode(t, r)["requests"].([]any) {
		reqs = append(reqs, x.(map[string]any))
	}
	ids := []string{}
	for _, x := range reqs {
		ids = append(ids, x["id"].(string))
	}
	return ids, reqs
}

func TestPendingListShapeAndArchive(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "p.db")
	if ids, _ := pendingIDs(t, db, true); len(ids) != 0 {
		t.Fatalf("empty database lists %v", ids)
	}
	deploy := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	trip := decode(t, runCLI(t, db, "ask", "Plan a trip", "--json"))
	deployID := deploy["pending"].([]any)[0].(map[string]any)["id"].(string)
	tripID := trip["pending"].([]any)[0].(map[string]any)["id"].(string)
	if r := runCLI(t, db, "answer", tripID, "--values-json", `{"destination":"Oslo"}`, "--json"); r.code != 0 {
		t.Fatalf("partial answer: %d %s", r.code, r.stdout)
	}

	ids, reqs := pendingIDs(t, db, true)
	if !reflect.DeepEqual(ids, []string{deployID, tripID}) {
		t.Fatalf("pending = %v, want %v", ids, []string{deployID, tripID})
	}
	if text, _ := pendingIDs(t, db, false); !reflect.DeepEqual(text, ids) {
		t.Fatalf("text lists %v, JSON %v", text, ids)
	}
	for _, req := range reqs {
		for _, k := range []string{"id", "digest", "chatId", "runId", "state", "title", "reason", "fields", "prefill", "missing"} {
			if _, ok := req[k]; !ok {
				t.Errorf("pending request lacks %q", k)
			}
		}
		// Every key says what `show` says of the same request.
		show := decode(t, runCLI(t, db, "show", req["id"].(string), "--json"))["request"].(map[string]any)
		for k, v := range req {
			if !reflect.DeepEqual(show[k], v) {
				t.Errorf("%s: pending says %s = %v, show says %v", req["id"], k, v, show[k])
			}
		}
	}
	if p := reqs[1]["partial"]; !reflect.DeepEqual(p, map[string]any{"destination": "Oslo"}) {
		t.Errorf("partial = %v", p)
	}

	// Across chats an archived chat is left out; asked for by chat, it shows.
	tripChat := trip["chatId"].(string)
	if r := runCLI(t, db, "archive", tripChat, "--json"); r.code != 0 {
		t.Fatalf("archive: %d %s", r.code, r.stdout)
	}
	if ids, _ := pendingIDs(t, db, true); !reflect.DeepEqual(ids, []string{deployID}) {
		t.Fatalf("after archiving, pending = %v", ids)
	}
	if ids, _ := pendingIDs(t, db, true, "--chat", tripChat); !reflect.DeepEqual(ids, []string{tripID}) {
		t.Fatalf("the archived chat's pending = %v", ids)
	}
	if text, _ := pendingIDs(t, db, false, "--chat", tripChat); !reflect.DeepEqual(text, []string{tripID}) {
		t.Fatalf("the archived chat's pending, as text = %v", text)
	}
	// Deleting a chat removes its requests from every list.
	if r := runCLI(t, db, "delete", deploy["chatId"].(string), "--yes", "--json"); r.code != 0 {
		t.Fatalf("delete: %d %s", r.code, r.stdout)
	}
	if ids, _ := pendingIDs(t, db, true); len(ids) != 0 {
		t.Fatalf("after deleting, pending = %v", ids)
	}
}

// clock is a settable Options.Now.
type clock struct{ ms atomic.Int64 }

func (c *clock) now() time.Time { return time.UnixMilli(c.ms.Load()).UTC() }

func TestPendingExpiresDueRequestsFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := &clock{}
	c.ms.Store(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli())
	svc, err := chat.Open(ctx, chat.Options{DBPath: filepath.Join(t.TempDir(), "x.db"), Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	sent, err := svc.Send(ctx, "", "a task", "")
	if err != nil {
		t.Fatal(err)
	}
	decl, _ := json.Marshal(map[string]any{"requestKey": "soon", "expiresAt": c.now().Add(time.Minute).Format(time.RFC3339),
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Soon",
			"fields": []any{map[string]any{"name": "a", "type": "text"}}}}})
	res, err := svc.OpenRequest(ctx, sent.RunID, "call_1", decl)
	if err != nil {
		t.Fatal(err)
	}
	list := func() string {
		var out bytes.Buffer
		if code := cli.Exec(ctx, []string{"pending", "--json"}, cli.Env{Service: svc, Stdout: &out, Stderr: io.Discard}); code != 0 {
			t.Fatalf("exit %d: %s", code, out.String())
		}
		return out.String()
	}
	if got := list(); !strings.Contains(got, res.RequestID) {
		t.Fatalf("before the deadline: %s", got)
	}
	c.ms.Add(2 * time.Minute.Milliseconds())
	if got := list(); got != `{"ok":true,"requests":[],"approvals":[]}`+"\n" {
		t.Fatalf("after the deadline: %s", got)
	}
	v, err := svc.Request(ctx, res.RequestID)
	if err != nil || v.State != "expired" || v.ClosedReason != "deadline" {
		t.Fatalf("request = %s/%s, %v", v.State, v.ClosedReason, err)
	}
}

// A flag with no value is a usage error, not the next flag taken as its
// value; an unknown chat is NOT_FOUND, not an empty list.
func TestFlagValuesAndUnknownChat(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	var out, errOut bytes.Buffer
	if code := cli.Main([]string{"--db", db, "pending", "--chat", "--json"}, strings.NewReader(""), &out, &errOut, nil); code != 2 ||
		!strings.Contains(out.String(), `"code":"USAGE"`) || !strings.Contains(out.String(), "--chat needs a value") {
		t.Fatalf("exit %d, out %s", code, out.String())
	}
	out.Reset()
	if code := cli.Main([]string{"--db", db, "pending", "--chat", "ch_nope", "--json"}, strings.NewReader(""), &out, &errOut, nil); code != 1 ||
		!strings.Contains(out.String(), `"code":"NOT_FOUND"`) {
		t.Fatalf("exit %d, out %s", code, out.String())
	}
}

// Text-mode show lists what the JSON holds: waiting proposals and
// revisions.
func TestShowTextListsProposalsAndRevisions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	sent, err := svc.Send(ctx, "", "Check deployment", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	rs, err := svc.Pending(ctx, sent.ChatID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("pending %v, %v", rs, err)
	}
	if _, err := svc.Resolve(ctx, rs[0].ID, rs[0].Digest, map[string]any{"environment": "staging"}, ""); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := cli.Exec(ctx, []string{"show", rs[0].ID}, cli.Env{Service: svc, Stdout: &out, Stderr: io.Discard}); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if s := out.String(); !strings.Contains(s, "proposal ") || !strings.Contains(s, `"environment":"staging"`) ||
		!strings.Contains(s, "revision 1: digest "+rs[0].Digest) {
		t.Fatalf("show:\n%s", s)
	}
}

// Text output is for people: a request's title, reason and description
// read as their markdown does, in pending, show and inspect alike.
func TestTextOutputRendersMarkdownInTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "md.db")
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := svc.Send(ctx, "", "a task", "")
	if err != nil {
		t.Fatal(err)
	}
	decl, _ := json.Marshal(map[string]any{"requestKey": "md", "reason": "Deploying to **production** needs a `tag`",
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Pick the **index**",
			"description": "See _the notes_", "fields": []any{map[string]any{"name": "a", "type": "text"}}}}})
	res, err := svc.OpenRequest(ctx, sent.RunID, "call_1", decl)
	if err != nil {
		t.Fatal(err)
	}
	svc.Close()
	for _, args := range [][]string{{"pending"}, {"show", res.RequestID}, {"inspect", sent.RunID}} {
		r := runCLI(t, db, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Pick the index") || strings.ContainsAny(r.stdout, "*`") {
			t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if args[0] == "pending" && (!strings.Contains(r.stdout, "Deploying to production needs a tag") || !strings.Contains(r.stdout, "See the notes")) {
			t.Errorf("pending's reason or description:\n%s", r.stdout)
		}
	}
}
