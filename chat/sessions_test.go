package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"followup/agent"

	"followup/store"
)

// travelArgs is an input_request with two fields, one prefilled.
func travelArgs(key string) json.RawMessage {
	return json.RawMessage(`{"requestKey":"` + key + `","reason":"To plan the trip","source":{"kind":"dynamic","definition":{"title":"Trip",
	 "fields":[{"name":"destination","type":"text","label":"Destination"},{"name":"travelers","type":"integer","min":1,"max":12}]}},
	 "prefill":{"destination":"Lyon"},"context":{"op":"plan"}}`)
}

// fxServe opens a serve session of a client called name.
func fxServe(t *testing.T, s *Service, name string) *ServeSession {
	t.Helper()
	ss, err := s.OpenServeSession(context.Background(), ServeClient{Name: name, Transport: "stdio",
		Started: time.Date(2026, 3, 1, 9, 30, 0, 0, time.Local)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.End(context.Background()) })
	return ss
}

// ok decodes a tool result that must be {"ok":true,…}.
func ok(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m["ok"] != true {
		t.Fatalf("result: %s", raw)
	}
	return m
}

// failed decodes a tool result that must fail with code.
func failed(t *testing.T, raw json.RawMessage, code string) {
	t.Helper()
	var m struct {
		OK    bool   `json:"ok"`
		Error *Error `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.OK || m.Error == nil || m.Error.Code != code {
		t.Fatalf("result %s, want error %s", raw, code)
	}
}

func idArg(id string) json.RawMessage { return json.RawMessage(`{"requestId":"` + id + `"}`) }

func TestServeSessionAsksInItsOwnChat(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "Claude Code")
	// Nothing is written before the first request.
	if page, _ := s.ChatList(ctx, "", 0); len(page.Chats) != 0 {
		t.Fatalf("a session that asked nothing made chats: %v", page.Chats)
	}
	if l := ok(t, ss.List(ctx, nil)); len(l["requests"].([]any)) != 0 {
		t.Fatalf("list before asking: %v", l)
	}
	res := ok(t, ss.Request(ctx, travelArgs("trip-1")))
	id := res["requestId"].(string)

	page, err := s.ChatList(ctx, "", 0)
	cs := page.Chats
	if err != nil || len(cs) != 1 || cs[0].Title != "Claude Code · Mar 1 09:30:00" {
		t.Fatalf("chats %+v, %v", cs, err)
	}
	v, err := s.Request(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Owner != (Owner{Kind: OwnerMCPClient, Name: "Claude Code"}) || v.RunID != "" || v.ChatID != cs[0].ID {
		t.Errorf("request %+v", v.RequestItem)
	}
	// The pending list (and its stored entry) names the owner.
	var b strings.Builder
	list, _ := s.PendingItems(ctx, "")
	list.WriteTo(&b)
	if !strings.Contains(b.String(), `"owner":{"kind":"mcp_client","name":"Claude Code"}`) {
		t.Errorf("pending --json: %s", b.String())
	}

	// The same key and arguments: the same request. Other arguments: refused.
	if again := ok(t, ss.Request(ctx, travelArgs("trip-1"))); again["requestId"] != id {
		t.Errorf("retry opened %v", again["requestId"])
	}
	other := json.RawMessage(strings.Replace(string(travelArgs("trip-1")), "Lyon", "Nice", 1))
	failed(t, ss.Request(ctx, other), CodeRequestKeyConfl)
	// An invalid declaration is refused and makes nothing.
	failed(t, ss.Request(ctx, json.RawMessage(`{"requestKey":"x","source":{"kind":"dynamic","definition":{"title":"T","fields":[]}}}`)), CodeRequestInvalid)

	// Another session neither sees nor cancels it, and may use the key.
	other2 := fxServe(t, s, "Codex")
	failed(t, other2.ReadAnswer(ctx, idArg(id)), CodeNotFound)
	failed(t, other2.Cancel(ctx, idArg(id)), CodeNotFound)
	failed(t, other2.Wait(ctx, id, time.Millisecond), CodeNotFound)
	if r := ok(t, other2.Request(ctx, travelArgs("trip-1"))); r["requestId"] == id {
		t.Error("another session's key returned this session's request")
	}
	if page, _ := s.ChatList(ctx, "", 0); len(page.Chats) != 2 {
		t.Errorf("chats after a second session asked: %d", len(page.Chats))
	}
	if l := ok(t, ss.List(ctx, nil)); len(l["requests"].([]any)) != 1 {
		t.Errorf("list: %v", l)
	}
}

func TestServeSessionEnd(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	asked := ok(t, ss.Request(ctx, travelArgs("open")))["requestId"].(string)
	unread := ok(t, ss.Request(ctx, travelArgs("unread")))["requestId"].(string)
	read := ok(t, ss.Request(ctx, travelArgs("read")))["requestId"].(string)
	for _, id := range []string{unread, read} {
		if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Rome", "travelers": 3}}); err != nil {
			t.Fatal(err)
		}
	}
	ok(t, ss.ReadAnswer(ctx, idArg(read)))
	if err := s.SaveDraft(ctx, Draft{RequestID: asked, Revision: 1, Values: map[string]any{"destination": "Gen"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Request(ctx, asked); v.Unsent != nil {
		t.Errorf("a pending request shows its draft as unsent: %v", v.Unsent)
	}
	if err := ss.End(ctx); err != nil {
		t.Fatal(err)
	}
	v, _ := s.Request(ctx, asked)
	if v.State != store.ReqExpired || v.ClosedReason != ReasonDisconnected || len(v.Deliveries) != 0 {
		t.Errorf("pending request after the end: %s %s %+v", v.State, v.ClosedReason, v.Deliveries)
	}
	// What the user had typed stays readable.
	if v.Unsent["destination"] != "Gen" {
		t.Errorf("unsent values after the end: %v", v.Unsent)
	}
	// Nothing is answered into the void.
	if _, err := s.Answer(ctx, AnswerInput{RequestID: asked, Values: map[string]any{"travelers": 2}}); CodeOf(err) != CodeTargetClosed {
		t.Errorf("answer after the end: %v", err)
	}
	v, _ = s.Request(ctx, unread)
	// An answer not read yet waits for the client to come back.
	if v.State != store.ReqAnswered || v.Answer == nil || v.Deliveries[0].State != store.DeliveryPending {
		t.Errorf("unread answer after the end: %s %+v", v.State, v.Deliveries)
	}
	v, _ = s.Request(ctx, read)
	if v.Deliveries[0].State != store.DeliveryDelivered {
		t.Errorf("read answer after the end: %+v", v.Deliveries)
	}
	failed(t, ss.Request(ctx, travelArgs("late")), CodeTargetClosed)
	if sc, err := s.Screen(ctx, v.ChatID, 50); err != nil || len(sc.Messages) != 3 {
		t.Errorf("the chat after the end: %d messages, %v", len(sc.Messages), err)
	}
}

func TestServeSessionLostWithItsProcess(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	open := func() *Service {
		s, err := Open(ctx, Options{DBPath: filepath.Join(dir, "f.db")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	server, screen := open(), open()
	ss := fxServe(t, server, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	// While the server lives, the screen leaves the session alone.
	if err := screen.expireDue(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := screen.Request(ctx, id); v.State != store.ReqPending {
		t.Fatalf("a live session's request is %s", v.State)
	}
	// The server dies: the kernel frees its byte, and nothing else happens.
	ss.mu.Lock()
	ss.lease.Release()
	ss.ended = true
	ss.mu.Unlock()
	if _, err := screen.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"travelers": 2}}); CodeOf(err) != CodeTargetClosed {
		t.Errorf("answer to a dead session: %v", err)
	}
	v, _ := screen.Request(ctx, id)
	if v.State != store.ReqExpired || v.ClosedReason != ReasonDisconnected {
		t.Errorf("request of a dead session: %s %s", v.State, v.ClosedReason)
	}
	sess, err := screen.store.ChatSession(ctx, screen.reader(), v.ChatID)
	if err != nil || sess.State != store.SessionEnded || sess.EndReason != endLost {
		t.Errorf("session: %+v, %v", sess, err)
	}
}

func TestServeSessionLimitAndArchive(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	var first string
	for i := range s.policy.QuestionsPerRun {
		id := ok(t, ss.Request(ctx, travelArgs("k"+string(rune('a'+i)))))["requestId"].(string)
		if first == "" {
			first = id
		}
	}
	failed(t, ss.Request(ctx, travelArgs("one-more")), CodeLimitExceeded)
	// The limit is on questions waiting: an answer makes room.
	if _, err := s.Answer(ctx, AnswerInput{RequestID: first, Values: map[string]any{"destination": "Rome", "travelers": 1}}); err != nil {
		t.Fatal(err)
	}
	ok(t, ss.Request(ctx, travelArgs("one-more")))

	v, _ := s.Request(ctx, first)
	if _, err := s.Archive(ctx, v.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	// Archived, the chat takes no more: the next question starts another
	// (TestServeChatArchivedStartsAnother).
	next := ok(t, ss.Request(ctx, travelArgs("archived")))["requestId"].(string)
	if nv, _ := s.Request(ctx, next); nv.ChatID == v.ChatID {
		t.Error("a question was asked in the archived chat")
	}
}

func TestServeChatDeletedStartsAnother(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	v, _ := s.Request(ctx, id)
	if err := s.Delete(ctx, v.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	// Its agent reads its question withdrawn, not a wrong id.
	if r := ok(t, ss.ReadAnswer(ctx, idArg(id))); r["state"] != "cancelled" || r["closedReason"] != ReasonChatDeleted {
		t.Errorf("read after the delete: %v", r)
	}
	id2 := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	v2, _ := s.Request(ctx, id2)
	if v2.ChatID == v.ChatID {
		t.Error("the deleted chat came back")
	}
	if page, _ := s.ChatList(ctx, "", 0); len(page.Chats) != 1 {
		t.Errorf("chats: %+v", page.Chats)
	}
	// The new row holds a lease of its own: another look finds it alive.
	if err := s.expireDue(ctx); err != nil {
		t.Fatal(err)
	}
	if v2, _ = s.Request(ctx, id2); v2.State != store.ReqPending {
		t.Errorf("the new chat's request is %s", v2.State)
	}
}

func TestAgentRequestsOwnedByTheAgent(t *testing.T) {
	s := fxOpen(t, nil)
	_, r := fxDeploy(t, s)
	if r.Owner != (Owner{Kind: OwnerAgent}) {
		t.Errorf("owner %+v", r.Owner)
	}
	var b strings.Builder
	list, _ := s.PendingItems(context.Background(), "")
	list.WriteTo(&b)
	if !strings.Contains(b.String(), `"owner":{"kind":"agent"}`) {
		t.Errorf("pending --json: %s", b.String())
	}
}

func TestServeChatTakesNoMessages(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "Claude Code")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	v, _ := s.Request(ctx, id)
	if _, err := s.Send(ctx, v.ChatID, "hello", ""); CodeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "Claude Code") {
		t.Errorf("a message to a serve chat: %v", err)
	}
	sc, err := s.Screen(ctx, v.ChatID, 50)
	if err != nil || sc.Chat.Serve == nil || *sc.Chat.Serve != (ServeInfo{Client: "Claude Code", Connected: true}) || sc.Run != nil {
		t.Fatalf("screen of a serve chat: %+v %+v, %v", sc.Chat, sc.Chat.Serve, err)
	}
	// Cancel still works there.
	if _, err := s.Cancel(ctx, id, ""); err != nil {
		t.Errorf("cancel in a serve chat: %v", err)
	}
	ss.End(ctx)
	if sc, _ = s.Screen(ctx, v.ChatID, 50); sc.Chat.Serve == nil || sc.Chat.Serve.Connected {
		t.Errorf("screen after the end: %+v", sc.Chat.Serve)
	}
	if in, _ := s.Inspect(ctx, v.ChatID); in.Chat.Serve == nil || in.Chat.Serve.Client != "Claude Code" {
		t.Errorf("inspect: %+v", in.Chat)
	}
	// Chats of followup's own agent have none.
	sent, _ := fxAsk(t, s, "", "Check deployment")
	if sc, _ := s.Screen(ctx, sent.ChatID, 50); sc.Chat.Serve != nil {
		t.Errorf("an agent chat reads as a serve chat: %+v", sc.Chat.Serve)
	}
}

// A request whose expiresAt has passed is refused, with a problem at
// /expiresAt, whoever asks: a serve session or followup's own agent.
func TestRequestExpiringInThePastIsRefused(t *testing.T) {
	clock := newFxClock()
	s := fxOpen(t, clock)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	past := clock.Now().Add(-time.Second).Format(time.RFC3339)
	decl := func(key, at string) json.RawMessage {
		return fxDecl(t, map[string]any{"requestKey": key, "source": fxTextDef("Soon", "a"), "expiresAt": at})
	}
	problemAt := func(raw json.RawMessage, err error) string {
		if err == nil {
			var out struct{ Error *Error }
			json.Unmarshal(raw, &out)
			if out.Error == nil {
				t.Fatalf("accepted: %s", raw)
			}
			err = out.Error
		}
		e := fxCode(t, err, CodeRequestInvalid)
		b, _ := json.Marshal(e.Details["problems"])
		return string(b)
	}
	if got := problemAt(ss.Request(ctx, decl("k", past)), nil); !strings.Contains(got, `"path":"/expiresAt"`) || !strings.Contains(got, "in the past") {
		t.Errorf("serve session: problems %s", got)
	}
	sent := fxRun(t, s)
	_, err := s.OpenRequest(ctx, sent.RunID, "call_1", decl("k", past))
	if got := problemAt(nil, err); !strings.Contains(got, `"path":"/expiresAt"`) {
		t.Errorf("agent: problems %s", got)
	}
	if vs, _ := s.Requests(ctx, sent.ChatID); len(vs) != 0 {
		t.Errorf("a refused request was opened: %v", vs)
	}
	// A retry of a request opened in time returns it, not a refusal.
	soon := clock.Now().Add(time.Minute).Format(time.RFC3339)
	first := ok(t, ss.Request(ctx, decl("k2", soon)))
	clock.Advance(2 * time.Minute)
	// …as it is now: expired by its deadline, not still pending.
	if again := ok(t, ss.Request(ctx, decl("k2", soon))); again["requestId"] != first["requestId"] || again["state"] != store.ReqExpired {
		t.Errorf("retry after the deadline: %v", again)
	}
}

// After the user archives a session's chat, the agent's next question is
// asked in a new chat, as after a delete; the archived one keeps its past.
func TestServeChatArchivedStartsAnother(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	v, _ := s.Request(ctx, id)
	if _, err := s.Archive(ctx, v.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	id2 := ok(t, ss.Request(ctx, travelArgs("k2")))["requestId"].(string)
	v2, _ := s.Request(ctx, id2)
	if v2.ChatID == v.ChatID || v2.State != store.ReqPending {
		t.Fatalf("the next question: chat %s (archived %s), %s", v2.ChatID, v.ChatID, v2.State)
	}
	// The new row holds the lease: another look finds it alive.
	if err := s.expireDue(ctx); err != nil {
		t.Fatal(err)
	}
	if v2, _ = s.Request(ctx, id2); v2.State != store.ReqPending {
		t.Errorf("the new chat's request is %s", v2.State)
	}
	if r := ok(t, ss.ReadAnswer(ctx, idArg(id))); r["state"] != store.ReqExpired || r["closedReason"] != ReasonChatArchived {
		t.Errorf("the archived chat's question: %v", r)
	}
}

// Sessions of one client within a minute (every `claude -p` is one) get
// chats the user can tell apart, those of the same second too.
func TestServeTitlesWithinAMinute(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 30, 5, 0, time.Local)
	for i, d := range []time.Duration{0, 400 * time.Millisecond, 20 * time.Second, 600 * time.Millisecond} {
		ss, err := s.OpenServeSession(ctx, ServeClient{Name: "Claude Code", Transport: "stdio", Started: at.Add(d)})
		if err != nil {
			t.Fatal(err)
		}
		defer ss.End(ctx)
		ok(t, ss.Request(ctx, travelArgs(fmt.Sprint("k", i))))
	}
	cs, err := s.store.ListChats(ctx, s.db.Reader(), store.ChatCursor{}, 10)
	var titles []string
	for _, c := range cs {
		titles = append(titles, c.Title)
	}
	slices.Sort(titles)
	want := []string{"Claude Code · Mar 1 09:30:05", "Claude Code · Mar 1 09:30:05 (2)", "Claude Code · Mar 1 09:30:05 (3)", "Claude Code · Mar 1 09:30:25"}
	if err != nil || !slices.Equal(titles, want) {
		t.Fatalf("titles %q (%v), want %q", titles, err, want)
	}
}

// The advertised input_request schema asks for what the rules require,
// no more: a definition without a title is accepted, and not advertised
// as required.
func TestAdvertisedDefinitionTitleOptional(t *testing.T) {
	s := fxOpen(t, nil)
	ss := fxServe(t, s, "Codex")
	ok(t, ss.Request(context.Background(), json.RawMessage(`{"requestKey":"untitled","source":{"kind":"dynamic","definition":{"fields":[{"name":"x","type":"text"}]}}}`)))
	for _, tool := range agent.InputTools() {
		if tool.Name != "input_request" {
			continue
		}
		var schema struct {
			Properties struct {
				Source struct {
					Properties struct {
						Definition struct {
							Required []string `json:"required"`
						} `json:"definition"`
					} `json:"properties"`
				} `json:"source"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
			t.Fatal(err)
		}
		if req := schema.Properties.Source.Properties.Definition.Required; slices.Contains(req, "title") {
			t.Errorf("input_request advertises definition.title as required: %v", req)
		}
	}
}

// TestServeResultsSayEachThingOnce: an answered result carries the values
// once and no empty run or tool call ids; a user's cancel says so in
// closedReason.
func TestServeResultsSayEachThingOnce(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("answered")))["requestId"].(string)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Rome", "travelers": 1}}); err != nil {
		t.Fatal(err)
	}
	r := ok(t, ss.ReadAnswer(ctx, idArg(id)))
	res, _ := r["result"].(map[string]any)
	if r["answer"] == nil || res == nil || res["status"] != "input_received" {
		t.Fatalf("answered: %v", r)
	}
	for _, dup := range []string{"values", "origins", "requestId"} {
		if _, twice := res[dup]; twice {
			t.Errorf("%s twice: %v", dup, r)
		}
	}
	origin, _ := res["origin"].(map[string]any)
	for _, k := range []string{"runId", "toolCallId"} {
		if _, there := origin[k]; there {
			t.Errorf("an empty %s in %v", k, origin)
		}
	}
	id2 := ok(t, ss.Request(ctx, travelArgs("cancelled")))["requestId"].(string)
	if _, err := s.Cancel(ctx, id2, ""); err != nil {
		t.Fatal(err)
	}
	if r := ok(t, ss.ReadAnswer(ctx, idArg(id2))); r["state"] != "cancelled" || r["closedReason"] != store.ReasonUserCancelled {
		t.Errorf("after the user's cancel: %v", r)
	}
}
