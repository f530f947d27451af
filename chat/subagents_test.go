package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"followup/agent"
	"followup/agent/agenttest"
	"followup/chat"
	"followup/store"
)

// offsite asks the demo's delegation through the CLI and returns the root
// run and the pending requests of venue and travel, by owner name.
func offsite(t *testing.T, w *world) (root string, byName map[string]string) {
	t.Helper()
	r := w.cli.ok(nil, "ask", "Plan a team offsite")
	if str(r.JSON, "state") != "waiting_children" || str(r.JSON, "pending", 1, "owner", "kind") != "agent" {
		t.Fatalf("ask: %s", r)
	}
	return str(r.JSON, "runId"), ownedPending(t, w, str(r.JSON, "runId"))
}

// ownedPending reads `pending --json` and checks each entry's owner names
// a sub-agent of root.
func ownedPending(t *testing.T, w *world, root string) map[string]string {
	t.Helper()
	p := w.cli.ok(nil, "pending")
	byName := map[string]string{}
	for i := 0; str(p.JSON, "requests", i, "id") != ""; i++ {
		name := str(p.JSON, "requests", i, "owner", "name")
		if str(p.JSON, "requests", i, "owner", "kind") != "agent" || str(p.JSON, "requests", i, "owner", "parentRunId") != root ||
			str(p.JSON, "requests", i, "owner", "path") != name ||
			str(p.JSON, "requests", i, "owner", "runId") != str(p.JSON, "requests", i, "runId") {
			t.Fatalf("pending entry %d has owner %s", i, str(p.JSON, "requests", i, "owner"))
		}
		if byName[name] != "" {
			t.Fatalf("two questions of %s: %s", name, p)
		}
		byName[name] = str(p.JSON, "requests", i, "id")
	}
	return byName
}

// TestSubAgentsHeadless: the demo's delegation through the CLI — two
// sub-agents ask at once, each question names its owner, a cancel reaches
// its owner only, and the parent's reply sums up both.
func TestSubAgentsHeadless(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	root, rq := offsite(t, w)
	if len(rq) != 2 || rq["venue"] == "" || rq["travel"] == "" {
		t.Fatalf("pending owners: %v", rq)
	}
	c := w.cli.ok(nil, "cancel", rq["travel"])
	if str(c.JSON, "run", "state") != store.RunSucceeded {
		t.Fatalf("cancel: %s", c)
	}
	if got := ownedPending(t, w, root); len(got) != 1 || got["venue"] != rq["venue"] {
		t.Fatalf("after cancelling travel's question, pending = %v", got)
	}
	if v, _ := w.svc.GetRun(context.Background(), root); v.State != chat.RunWaitingChildren {
		t.Fatalf("root is %s while venue still asks", v.State)
	}
	a := w.cli.ok(nil, "answer", rq["venue"], "--values-json", `{"city":"Porto","people":12}`)
	if str(a.JSON, "task", "id") != root || str(a.JSON, "task", "state") != store.RunSucceeded {
		t.Fatalf("answer does not show the task it moved: %s", a)
	}
	in := w.cli.ok(nil, "inspect", root)
	reply := str(in.JSON, "run", "reply")
	if str(in.JSON, "run", "state") != store.RunSucceeded || !strings.Contains(reply, "Porto") ||
		!strings.Contains(reply, "**travel**: its question was cancelled") {
		t.Fatalf("root after both: %s", in)
	}
	for i, name := range []string{"venue", "travel"} {
		if str(in.JSON, "children", i, "name") != name || str(in.JSON, "children", i, "state") != store.RunSucceeded ||
			str(in.JSON, "children", i, "parentRunId") != root {
			t.Fatalf("inspect children: %s", in)
		}
	}
	text := w.cli.run(nil, "inspect", root, "--json=false")
	if !strings.Contains(text.Stdout, "sub-agent venue") || !strings.Contains(text.Stdout, "A venue in Porto for 12 people") {
		t.Fatalf("inspect text:\n%s", text.Stdout)
	}
	w.checkHistory(root, "user", "assistant", "tool", "tool", "assistant")
}

// TestSubAgentsStopCascades: stopping the task stops every sub-agent and
// expires their questions (task_stopped); a late answer is refused.
func TestSubAgentsStopCascades(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	sent, err := w.svc.Send(ctx, "", "Plan a team offsite", "")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := w.svc.Drive(ctx, sent.RunID); err != nil || v.State != chat.RunWaitingChildren {
		t.Fatalf("drive: %v %v", v.State, err)
	}
	if _, err := w.svc.Stop(ctx, sent.RunID, ""); err != nil {
		t.Fatal(err)
	}
	kids, err := w.svc.Children(ctx, sent.RunID)
	if err != nil || len(kids) != 2 {
		t.Fatalf("children: %v %v", kids, err)
	}
	for _, k := range kids {
		if k.State != chat.RunStopped {
			t.Errorf("sub-agent %s is %s after the task stopped", k.Name, k.State)
		}
	}
	if n := w.count(`SELECT COUNT(*) FROM requests WHERE chat_id = ? AND state = 'expired' AND closed_reason = 'task_stopped'`, sent.ChatID); n != 2 {
		t.Fatalf("%d questions expired task_stopped, want 2", n)
	}
	rq := w.count(`SELECT COUNT(*) FROM requests WHERE chat_id = ? AND state = 'pending'`, sent.ChatID)
	r := w.cli.run(nil, "answer", w.onlyRequest(kids[0].ID), "--values-json", `{"city":"Porto","people":3}`)
	if rq != 0 || r.Code != 1 || str(r.JSON, "error", "code") != chat.CodeTargetClosed {
		t.Fatalf("late answer to a stopped sub-agent: %s", r)
	}
}

// treeModel is a scripted model for delegation: a run's first message is
// its script — "go" delegates six times (a bad name, k0, k0 again, k1–k3,
// and a fifth at once), "nest" delegates once more, "ask" asks one
// question — and any tool result or answer is read back as the final
// reply.
type treeModel struct{}

func (treeModel) Name() string { return "tree" }

func (treeModel) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	first, last := req.Messages[0], req.Messages[len(req.Messages)-1]
	call := func(id, name, args string) agent.ToolCall {
		return agent.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
	}
	delegate := func(id, name, brief string) agent.ToolCall {
		return call(id, agent.DelegateTool, fmt.Sprintf(`{"name":%q,"brief":%q}`, name, brief))
	}
	msg := agent.Message{Role: agent.RoleAssistant}
	switch {
	case len(req.Messages) > 1:
		msg.Content = "read: " + last.Content
	case first.Content == "go":
		msg.ToolCalls = []agent.ToolCall{delegate("c0", "Bad", "x"), delegate("c1", "k0", "nest"), delegate("c2", "k0", "x"),
			delegate("c3", "k1", "x"), delegate("c4", "k2", "x"), delegate("c5", "k3", "x"), delegate("c6", "k4", "x")}
	case first.Content == "nest":
		msg.ToolCalls = []agent.ToolCall{delegate("n", "deeper", "nest")}
	case first.Content == "two":
		msg.ToolCalls = []agent.ToolCall{delegate("a", "a", "ask"), delegate("b", "b", "ask")}
	case first.Content == "ask":
		msg.ToolCalls = []agent.ToolCall{call("q", "input_request", `{"requestKey":"q","source":{"kind":"dynamic","definition":{"fields":[{"name":"x","type":"text"}]}}}`)}
	default:
		msg.Content = "done: " + first.Content
	}
	return agent.Response{Message: msg}, nil
}

// treeWorld is a world whose service (in this process) uses treeModel.
func treeWorld(t *testing.T, p chat.Policy) (*world, *chat.Service) {
	w := newWorld(t)
	s, err := chat.Open(context.Background(), chat.Options{DBPath: w.cli.db, Provider: treeModel{}, Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return w, s
}

// askTree sends text and drives its run to its wait or end.
func askTree(t *testing.T, s *chat.Service, text string) chat.RunView {
	sent, err := s.Send(context.Background(), "", text, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Drive(context.Background(), sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSubAgentsLimits: delegation refused in words — a bad or repeated
// name, a fifth at once, a third level — while the others run and end.
func TestSubAgentsLimits(t *testing.T) {
	t.Parallel()
	w, s := treeWorld(t, chat.Policy{})
	v := askTree(t, s, "go")
	if v.State != chat.RunSucceeded {
		t.Fatalf("root: %+v", v)
	}
	want := map[string]string{"c0": `"INVALID_ARGUMENT"`, "c1": `"child_done"`, "c2": `"INVALID_ARGUMENT"`, "c3": `"child_done"`,
		"c4": `"child_done"`, "c5": `"child_done"`, "c6": `"LIMIT_EXCEEDED"`}
	for id, code := range want {
		var got string
		w.sql.QueryRow(`SELECT content FROM messages WHERE run_id = ? AND tool_call_id = ?`, v.ID, id).Scan(&got)
		if !strings.Contains(got, code) {
			t.Errorf("result of %s = %s, want %s", id, got, code)
		}
	}
	kids, _ := s.Children(context.Background(), v.ID)
	if len(kids) != 4 || len(kids[0].Children) != 1 || len(kids[0].Children[0].Children) != 0 {
		t.Fatalf("tree: %+v", kids)
	}
	deepest := kids[0].Children[0]
	if r := toolResults(t, w, deepest.ID); len(r) != 1 || !strings.Contains(r[0], "LIMIT_EXCEEDED") || !strings.Contains(r[0], "at most 2 deep") {
		t.Fatalf("a third level: %v", r)
	}
}

// TestSubAgentsCreditsAcrossTree: the model-call cap and the questions
// policy count the whole task: a sub-agent cannot reset them by being new.
func TestSubAgentsCreditsAcrossTree(t *testing.T) {
	t.Parallel()
	_, s := treeWorld(t, chat.Policy{ModelCalls: 3})
	// go: 1 call; its four children one each — the cap is reached in the tree.
	v := askTree(t, s, "go")
	if v.State != chat.RunFailed || !strings.Contains(v.Error, "LIMIT_EXCEEDED") {
		t.Fatalf("root under a cap of 3 calls: %+v", v)
	}
	kids, _ := s.Children(context.Background(), v.ID)
	failed := 0
	for _, k := range kids {
		if k.State == chat.RunFailed {
			failed++
			// Its parent was told and decided: it is not resumed alone.
			if _, err := s.Resume(context.Background(), k.ID); chat.CodeOf(err) != chat.CodeRunNotResumable {
				t.Fatalf("resume of a failed sub-agent: %v", err)
			}
		}
	}
	if failed == 0 {
		t.Fatalf("no sub-agent met the cap: %+v", kids)
	}

	w, s := treeWorld(t, chat.Policy{QuestionsPerRun: 1})
	v = askTree(t, s, "two")
	if n := w.count(`SELECT COUNT(*) FROM requests`); v.State != chat.RunWaitingChildren || n != 1 {
		t.Fatalf("two sub-agents under a policy of 1 question: root %s, %d questions", v.State, n)
	}
	kids, _ = s.Children(context.Background(), v.ID)
	refused := 0
	for _, k := range kids {
		if r := toolResults(t, w, k.ID); len(r) == 1 && strings.Contains(r[0], "LIMIT_EXCEEDED") {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d sub-agents refused a question, want 1", refused)
	}
}

// TestSubAgentsKillTree: the demo's tree killed with SIGKILL at durable
// steps of every phase — the parent delegating, a child starting, a child
// mid-call, a child ending, the parent merging — then `resume` of the
// root: nothing lost, nothing twice, no child orphaned or started twice.
func TestSubAgentsKillTree(t *testing.T) {
	t.Parallel()
	askKills := []string{"turn-recorded@1", "child-started@1", "child-started@2", "settled@1", "model-replied@2",
		"turn-recorded@3", "tool-result-recorded@1", "settled@3"}
	venueKills := []string{"drive@1", "delivery-written@1", "model-replied@1", "settled@1", "drive@2", "", "turn-recorded@1", "delivery-unknown@1"}
	travelKills := []string{"settled@1", "model-replied@2", "turn-recorded@2", "drive@2", "delivery-written@1", "settled@2", "", "model-replied@1"}
	rounds := len(askKills)
	if fewer() {
		rounds = 3
	}
	for i := 0; i < rounds; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			r := w.cli.run(crashAt(askKills[i]), "ask", "Plan a team offsite", "--command-id", "ask")
			killed := r.Killed
			root := w.runOfCommand("ask")
			if root == "" {
				t.Fatalf("ask left no run: %s", r)
			}
			w.resumeTree(root)
			rq := ownedPending(t, w, root)
			if len(rq) != 2 {
				t.Fatalf("after %s and resume: questions %v", askKills[i], rq)
			}
			a := w.cli.run(crashAt(venueKills[i]), "answer", rq["venue"], "--values-json", `{"city":"Porto","people":12}`)
			w.resumeTree(root)
			c := w.cli.run(crashAt(travelKills[i]), "cancel", rq["travel"])
			w.resumeTree(root)
			if !killed || a.Killed != (venueKills[i] != "") || c.Killed != (travelKills[i] != "") {
				t.Errorf("a kill did not happen: ask %v, answer %v, cancel %v", killed, a.Killed, c.Killed)
			}
			v, err := w.svc.GetRun(context.Background(), root)
			if err != nil || v.State != chat.RunSucceeded || !strings.Contains(v.Reply, "Porto") || !strings.Contains(v.Reply, "cancelled") {
				t.Fatalf("root after kills at %s, %s, %s: %+v %v", askKills[i], venueKills[i], travelKills[i], v, err)
			}
			w.checkHistory(root, "user", "assistant", "tool", "tool", "assistant")
			kids, _ := w.svc.Children(context.Background(), root)
			for _, k := range kids {
				w.checkHistory(k.ID, "user", "assistant", "tool", "user", "assistant")
			}
			if n := w.count(`SELECT COUNT(*) FROM runs`); len(kids) != 2 || n != 3 {
				t.Fatalf("%d runs, children %+v", n, kids)
			}
		})
	}
}

// resumeTree resumes a root after a kill, as a user would, and checks that
// no run of its tree is left behind: each is ended or waits for the user
// (or for children that do), and no delivery reached a history twice.
func (w *world) resumeTree(root string) {
	w.t.Helper()
	if r := w.cli.run(nil, "resume", root); r.Code != 0 && str(r.JSON, "error", "details", "state") != store.RunSucceeded {
		w.t.Fatalf("resume: %s", r)
	}
	kids, _ := w.svc.Children(context.Background(), root)
	open := false
	for _, k := range kids {
		w.checkRecoverable(k.ID, "after resume")
		open = open || !k.State.Final()
	}
	if v, _ := w.svc.GetRun(context.Background(), root); v.State == chat.RunWaitingChildren && !open {
		w.t.Fatalf("the root waits for children that have all ended: %+v", kids)
	} else if v.State != chat.RunWaitingChildren {
		w.checkRecoverable(root, "after resume")
	}
	orphans, _ := w.svc.Orphaned(context.Background())
	if len(orphans) > 0 {
		w.t.Fatalf("orphaned after resume: %+v", orphans)
	}
}

// delegatingAgent is a model whose task "Ship the release" it hands to a
// sub-agent, env, which asks for the environment (deployAgent); once env
// has ended it reports what env said.
func delegatingAgent(w http.ResponseWriter, r agenttest.Request, n int) {
	var b fakeBody
	json.Unmarshal(r.Raw, &b)
	if len(b.Messages) < 2 || b.Messages[1].Content != "Ship the release" {
		deployAgent(w, r, n)
		return
	}
	last := b.Messages[len(b.Messages)-1]
	var res struct{ Status, Reply string }
	if json.Unmarshal([]byte(last.Content), &res) == nil && last.Role == "tool" {
		agenttest.OpenAITurn(w, n, "env says: "+res.Reply+" ("+res.Status+")")
		return
	}
	agenttest.OpenAITurn(w, n, "I'll hand that to a sub-agent.", "agent_delegate", `{"name":"env","brief":"Deploy the release"}`)
}

// TestProviderDelegates: a real provider's model (the OpenAI protocol, a
// fake server on 127.0.0.1) is offered agent_delegate, calls it, and gets
// the child's reply as the call's result once the child's question is
// answered.
func TestProviderDelegates(t *testing.T) {
	t.Parallel()
	f := newFakeModel(t)
	f.Fallback(delegatingAgent)
	w := newWorld(t, f.env(testKey)...)
	r := w.cli.ok(nil, "ask", "Ship the release")
	root := str(r.JSON, "runId")
	if str(r.JSON, "state") != "waiting_children" {
		in := w.cli.run(nil, "inspect", root)
		t.Fatalf("ask: %s\n%s\n%d calls, last %s", r, in, f.Calls(), f.Request(f.Calls()-1).Raw)
	}
	offered := ""
	for _, tl := range f.body(0).Tools {
		if tl.Function.Name == "agent_delegate" {
			offered = string(f.Request(0).Raw)
		}
	}
	if !strings.Contains(offered, "child_done") || !strings.Contains(offered, `"brief"`) {
		t.Fatalf("agent_delegate is not offered with its description: %s", f.Request(0).Raw)
	}
	rq := ownedPending(t, w, root)["env"]
	if rq == "" {
		t.Fatal("the sub-agent's question is not pending under its name")
	}
	w.cli.ok(nil, "answer", rq, "--values-json", `{"environment":"staging"}`)
	v, err := w.svc.GetRun(context.Background(), root)
	if err != nil || v.State != chat.RunSucceeded || v.Reply != "env says: Deploying to staging. (child_done)" {
		t.Fatalf("root: %+v %v", v, err)
	}
	if f.Calls() != 4 {
		t.Fatalf("%d model calls, want 4 (root, env, env, root)", f.Calls())
	}
}

// TestSubAgentsStopOneChild: stopping one sub-agent alone stops it only
// (its question expires, its sibling's stays); once the sibling ends, the
// parent reads the stopped one as failed and says so.
func TestSubAgentsStopOneChild(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	root, rq := offsite(t, w)
	kids, _ := w.svc.Children(context.Background(), root)
	travel := kids[1]
	if travel.Name != "travel" {
		t.Fatalf("children: %+v", kids)
	}
	w.cli.ok(nil, "stop", travel.ID)
	if got := ownedPending(t, w, root); len(got) != 1 || got["venue"] != rq["venue"] {
		t.Fatalf("after stopping travel, pending = %v", got)
	}
	if v, _ := w.svc.GetRun(context.Background(), root); v.State != chat.RunWaitingChildren {
		t.Fatalf("root is %s while venue still asks", v.State)
	}
	w.cli.ok(nil, "answer", rq["venue"], "--values-json", `{"city":"Porto","people":12}`)
	v, _ := w.svc.GetRun(context.Background(), root)
	if v.State != chat.RunSucceeded || !strings.Contains(v.Reply, "**travel** did not finish: the sub-agent was stopped") {
		t.Fatalf("root: %+v", v)
	}
}
