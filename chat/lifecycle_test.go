package chat

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"followup/forms"
	"followup/store"
)

func TestArchivedChatRefusesModelOperations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	// An answered question whose delivery is still pending when the chat
	// is archived.
	done, err := s.OpenRequest(ctx, sent.RunID, "call_done", fxDecl(t, map[string]any{"requestKey": "done", "source": fxTextDef("D", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: done.RequestID, Values: map[string]any{"a": "x"}}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Resolve(ctx, req.ID, "", map[string]any{"environment": "staging"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Archive(ctx, sent.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	before := fxRows(t, s, req.ID) + fxRows(t, s, done.RequestID)
	runBefore, _ := s.GetRun(ctx, sent.RunID)

	ops := []struct {
		name string
		run  func() error
	}{
		{"Send", func() error { _, err := s.Send(ctx, sent.ChatID, "use staging", ""); return err }},
		{"OpenRequest", func() error {
			_, err := s.OpenRequest(ctx, sent.RunID, "call_new", fxDecl(t, map[string]any{"requestKey": "new", "source": fxTextDef("N", "a")}))
			return err
		}},
		{"Answer", func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}})
			return err
		}},
		{"Cancel", func() error { _, err := s.Cancel(ctx, req.ID, ""); return err }},
		{"Resolve", func() error {
			_, err := s.Resolve(ctx, req.ID, "", map[string]any{"environment": "production"}, "")
			return err
		}},
		{"Replace", func() error {
			_, err := s.Replace(ctx, ReplaceInput{RequestID: req.ID, Source: json.RawMessage(mustJSON(fxTextDef("R", "a")))}, "")
			return err
		}},
		{"Decide", func() error {
			_, err := s.Decide(ctx, Decision{ProposalID: res.ProposalID, Accept: true}, "")
			return err
		}},
	}
	ops = append(ops, []struct {
		name string
		run  func() error
	}{
		{"Drive", func() error { _, err := s.Drive(ctx, sent.RunID); return err }},
		{"Resume", func() error { _, err := s.Resume(ctx, sent.RunID); return err }},
	}...)
	for _, op := range ops {
		if err := op.run(); CodeOf(err) != CodeChatArchived {
			t.Errorf("%s on an archived chat: err = %v, want %s", op.name, err, CodeChatArchived)
		}
	}
	if after := fxRows(t, s, req.ID) + fxRows(t, s, done.RequestID); after != before {
		t.Errorf("refused operations changed requests:\n%s\n%s", before, after)
	}
	if run, _ := s.GetRun(ctx, sent.RunID); run.ModelCalls != runBefore.ModelCalls || run.Step != runBefore.Step || run.State != runBefore.State {
		t.Errorf("run moved: %+v, was %+v", run, runBefore)
	}

	// Still readable.
	iv, err := s.Inspect(ctx, sent.ChatID)
	if err != nil || iv.Chat.State != store.ChatArchived || len(iv.Messages) == 0 || len(iv.Requests) != 2 {
		t.Fatalf("inspect = %+v, %v", iv, err)
	}
	if ms, _, err := s.TranscriptPage(ctx, sent.ChatID, 0, 50); err != nil || len(ms) == 0 {
		t.Fatalf("transcript = %d, %v", len(ms), err)
	}
	if v, err := s.Request(ctx, req.ID); err != nil || v.State != store.ReqPending {
		t.Fatalf("request = %+v, %v", v, err)
	}
}

func TestArchivedChatDriveChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Archive(ctx, sent.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	before := fxRows(t, s, req.ID)
	runBefore, _ := s.GetRun(ctx, sent.RunID)
	for _, drive := range []func(context.Context, string) (RunView, error){s.Drive, s.Resume} {
		_, err := drive(ctx, sent.RunID)
		fxCode(t, err, CodeChatArchived)
	}
	if after := fxRows(t, s, req.ID); after != before {
		t.Fatalf("driving an archived chat changed the request:\n%s\n%s", before, after)
	}
	if run, _ := s.GetRun(ctx, sent.RunID); run.State != runBefore.State || run.Step != runBefore.Step {
		t.Fatalf("run moved: %+v, was %+v", run, runBefore)
	}
}

func TestDeleteLeavesNoRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)

	// A chat with every kind of row: two runs, answered, partial, cancelled
	// and proposed requests, drafts, deliveries and receipts.
	sent, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "production"}, CommandID: "del-answer"}); err != nil {
		t.Fatal(err)
	}
	if run, err := s.Drive(ctx, sent.RunID); err != nil || run.State != store.RunSucceeded {
		t.Fatalf("run = %+v, %v", run, err)
	}
	trip, run2 := fxAsk(t, s, sent.ChatID, "Plan a trip")
	if !trip.NewRun || run2.State != store.RunWaitingInput {
		t.Fatalf("second run = %+v %+v", trip, run2)
	}
	travel := fxOnePending(t, s, sent.ChatID)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: travel.ID, Values: map[string]any{"destination": "Kyoto"}, CommandID: "del-partial"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDraft(ctx, Draft{RequestID: travel.ID, Revision: 1, Values: forms.Values{"notes": "window seat"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	fxAsk(t, s, sent.ChatID, "transport: train")
	extra, err := s.OpenRequest(ctx, trip.RunID, "call_extra", fxDecl(t, map[string]any{"requestKey": "extra", "source": fxTextDef("E", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Cancel(ctx, extra.RequestID, "del-cancel"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Archive(ctx, sent.ChatID, "del-archive"); err != nil {
		t.Fatal(err)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM proposals`); n == 0 {
		t.Fatal("the setup made no proposal")
	}

	// Another chat that must stay.
	other, _ := fxDeploy(t, s)

	ids := []string{sent.ChatID, sent.RunID, trip.RunID, req.ID, travel.ID, extra.RequestID}
	if found := fxScan(t, s, ids); len(found) == 0 {
		t.Fatal("the scan finds nothing before deleting: it does not work")
	}
	if err := s.Delete(ctx, sent.ChatID, "del-delete"); err != nil {
		t.Fatal(err)
	}
	if found := fxScan(t, s, ids); len(found) > 0 {
		t.Fatalf("rows left after deleting the chat:\n%s", strings.Join(found, "\n"))
	}
	if found := fxScan(t, s, []string{other.ChatID, other.RunID}); len(found) == 0 {
		t.Fatal("deleting one chat removed another")
	}
	_, err = s.Inspect(ctx, sent.ChatID)
	fxCode(t, err, CodeNotFound)
	_, err = s.Answer(ctx, AnswerInput{RequestID: travel.ID, Values: map[string]any{"start": "2026-05-01"}})
	fxCode(t, err, CodeNotFound)
	// Deleting again: the receipt answers; a new command finds nothing.
	if err := s.Delete(ctx, sent.ChatID, "del-delete"); err != nil {
		t.Fatalf("replayed delete: %v", err)
	}
	fxCode(t, s.Delete(ctx, sent.ChatID, ""), CodeNotFound)
	if found := fxScan(t, s, ids); len(found) > 0 {
		t.Fatalf("rows after the replay:\n%s", strings.Join(found, "\n"))
	}
}

// fxScan looks for any of ids in every column of every table.
func fxScan(t *testing.T, s *Service, ids []string) []string {
	t.Helper()
	db := fxSQL(t, s)
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("tables = %v", tables)
	}
	var found []string
	for _, table := range tables {
		dump := fxDump(t, s, `SELECT * FROM "`+table+`"`)
		for _, line := range strings.Split(dump, "\n") {
			for _, id := range ids {
				if strings.Contains(line, id) {
					found = append(found, table+": "+id+": "+line)
				}
			}
		}
	}
	return found
}

func TestTemplateInvalidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	def := forms.Definition{Title: "Pick a region", Fields: []forms.Field{
		{Name: "region", Type: forms.Select, Label: "Region", Required: true, Options: []forms.Option{{Value: "eu"}, {Value: "us"}}}}}

	bad := []struct {
		name string
		def  forms.Definition
		code string
	}{
		{"bad name!", def, CodeInvalidArgument},
		{"empty", forms.Definition{Title: "x"}, CodeRequestInvalid},
		{"badtype", forms.Definition{Title: "x", Fields: []forms.Field{{Name: "a", Type: "color", Required: true}}}, CodeRequestInvalid},
	}
	for _, tc := range bad {
		if err := s.RegisterTemplate(ctx, tc.name, tc.def); CodeOf(err) != tc.code {
			t.Errorf("RegisterTemplate(%q) = %v, want %s", tc.name, err, tc.code)
		}
	}
	if err := s.RegisterTemplate(ctx, "region", def); err != nil {
		t.Fatal(err)
	}
	caps, _ := s.Capabilities(ctx)
	if names := caps["templates"].([]string); len(names) != 1 || names[0] != "region" {
		t.Fatalf("templates = %v", caps["templates"])
	}

	sent := fxRun(t, s)
	fromTemplate := map[string]any{"requestKey": "where", "source": map[string]any{"kind": "template", "template": "region"}}
	tq, err := s.OpenRequest(ctx, sent.RunID, "call_t", fxDecl(t, fromTemplate))
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := s.OpenRequest(ctx, sent.RunID, "call_d", fxDecl(t, map[string]any{"requestKey": "other", "source": fxTextDef("O", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Request(ctx, tq.RequestID); v.Title != "Pick a region" || len(v.Fields) != 1 {
		t.Fatalf("template request = %+v", v)
	}
	// A second chat's request from the same template.
	sent2 := fxRun(t, s)
	tq2, err := s.OpenRequest(ctx, sent2.RunID, "call_t", fxDecl(t, fromTemplate))
	if err != nil {
		t.Fatal(err)
	}

	fxCode(t, s.InvalidateTemplate(ctx, "nope"), CodeNotFound)
	if err := s.InvalidateTemplate(ctx, "region"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{tq.RequestID, tq2.RequestID} {
		v, _ := s.Request(ctx, id)
		if v.State != store.ReqExpired || v.ClosedReason != store.ReasonTemplateInvalidated {
			t.Fatalf("template request = %s/%s", v.State, v.ClosedReason)
		}
		if len(v.Deliveries) != 1 || v.Deliveries[0].Kind != store.DeliveryExpire || v.Deliveries[0].State != store.DeliveryPending {
			t.Fatalf("deliveries = %+v", v.Deliveries)
		}
		_, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"region": "eu"}})
		if e := fxCode(t, err, CodeTargetClosed); e.Details["closedReason"] != store.ReasonTemplateInvalidated {
			t.Fatalf("details = %v", e.Details)
		}
	}
	if v, _ := s.Request(ctx, dyn.RequestID); v.State != store.ReqPending {
		t.Fatalf("a request from another source expired: %s", v.State)
	}
	caps, _ = s.Capabilities(ctx)
	if names := caps["templates"].([]string); len(names) != 0 {
		t.Fatalf("templates after invalidation = %v", names)
	}
	_, err = s.OpenRequest(ctx, sent.RunID, "call_t2", fxDecl(t, map[string]any{"requestKey": "where2", "source": fromTemplate["source"]}))
	fxCode(t, err, CodeRequestInvalid)
	// A retry of the first declaration still gets the request's state.
	if again, err := s.OpenRequest(ctx, sent.RunID, "call_t", fxDecl(t, fromTemplate)); err != nil || again.State != store.ReqExpired {
		t.Fatalf("retry after invalidation = %+v, %v", again, err)
	}

	// The run is told.
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	var told bool
	ms, _ := s.store.RunMessages(ctx, s.reader(), sent.RunID)
	for _, m := range ms {
		if m.DeliveryID.Valid && strings.Contains(m.Content, `"input_expired"`) && strings.Contains(m.Content, store.ReasonTemplateInvalidated) {
			told = true
		}
	}
	if !told {
		t.Fatal("the run was not told")
	}
	// Registering it again makes it usable again.
	if err := s.RegisterTemplate(ctx, "region", def); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenRequest(ctx, sent2.RunID, "call_t3", fxDecl(t, map[string]any{"requestKey": "where3", "source": fromTemplate["source"]})); err != nil {
		t.Fatal(err)
	}
}

func TestMultiplePendingRequestsInOneChat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, first := fxDeploy(t, s)
	second, err := s.OpenRequest(ctx, sent.RunID, "call_2", fxDecl(t, map[string]any{"requestKey": "second", "source": fxTextDef("Second", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	pend, err := s.Pending(ctx, sent.ChatID)
	if err != nil || len(pend) != 2 || pend[0].ID != first.ID || pend[1].ID != second.RequestID {
		t.Fatalf("pending = %+v, %v", pend, err)
	}
	if all, _ := s.Pending(ctx, ""); len(all) != 2 {
		t.Fatalf("pending everywhere = %d", len(all))
	}
	list := fxToolJSON(t, inputTools{s}.List(ctx, agentCC(sent), nil))
	items, _ := list["requests"].([]any)
	if list["ok"] != true || len(items) != 2 {
		t.Fatalf("input_list = %v", list)
	}
	for i, want := range []string{first.ID, second.RequestID} {
		it := items[i].(map[string]any)
		if it["id"] != want || it["state"] != store.ReqPending {
			t.Fatalf("item %d = %v", i, it)
		}
	}
	// Answering one leaves the other pending and the run waiting.
	if _, err := s.Answer(ctx, AnswerInput{RequestID: first.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	if pend, _ := s.Pending(ctx, sent.ChatID); len(pend) != 1 || pend[0].ID != second.RequestID {
		t.Fatalf("pending after one answer = %+v", pend)
	}
}

// The template name rule is the one RegisterTemplate applies.
func TestTemplateNameRule(t *testing.T) {
	for name, want := range map[string]bool{
		"trip": true, "deploy.check:v2_x-1": true, strings.Repeat("a", 128): true,
		"": false, "a b": false, "bad name!": false, strings.Repeat("a", 129): false, "é": false,
	} {
		if got := forms.ValidKey(name); got != want {
			t.Errorf("forms.ValidKey(%q) = %v", name, got)
		}
	}
}

// Every view of a chat counts its open requests as the chat list does:
// Chat, Inspect, Screen, Archive and Unarchive agree with ChatList, an
// archived chat counting none.
func TestEveryChatViewCountsItsOpenRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, _ := fxDeploy(t, s)
	if _, err := s.OpenRequest(ctx, sent.RunID, "call_2", fxDecl(t, map[string]any{"requestKey": "second", "source": fxTextDef("Second", "a")})); err != nil {
		t.Fatal(err)
	}
	views := func(want int) {
		t.Helper()
		c, err := s.Chat(ctx, sent.ChatID)
		if err != nil || c.Pending != want {
			t.Errorf("Chat: pending %d, %v; want %d", c.Pending, err, want)
		}
		in, err := s.Inspect(ctx, sent.ChatID)
		if err != nil || in.Chat == nil || in.Chat.Pending != want {
			t.Errorf("Inspect: %+v, %v; want pending %d", in.Chat, err, want)
		}
		sc, err := s.Screen(ctx, sent.ChatID, 50)
		if err != nil || sc.Chat.Pending != want {
			t.Errorf("Screen: pending %d, %v; want %d", sc.Chat.Pending, err, want)
		}
		page, err := s.ChatList(ctx, "", 10)
		list := page.Chats
		if err != nil || len(list) != 1 || list[0].Pending != want {
			t.Errorf("ChatList: %+v, %v; want pending %d", list, err, want)
		}
	}
	views(2)
	if c, err := s.Archive(ctx, sent.ChatID, ""); err != nil || c.Pending != 0 {
		t.Fatalf("Archive = %+v, %v", c, err)
	}
	views(0)
	if c, err := s.Unarchive(ctx, sent.ChatID, ""); err != nil || c.Pending != 2 {
		t.Fatalf("Unarchive = %+v, %v", c, err)
	}
	views(2)
}
