package skills_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"followup/agent"
	"followup/agent/agenttest"
	"followup/agent/skills"
	"followup/chat"
	"followup/store"
)

func open(t *testing.T, db string, p agent.Provider, set *skills.Set) *chat.Service {
	t.Helper()
	s, err := chat.Open(context.Background(), chat.Options{DBPath: db, Provider: p, Skills: set})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// ask sends text in a new chat, drives the run and returns its one pending request.
func ask(t *testing.T, s *chat.Service, text string) (chat.Sent, chat.RequestView) {
	t.Helper()
	ctx := context.Background()
	sent, err := s.Send(ctx, "", text, "")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || run.State != store.RunWaitingInput {
		t.Fatalf("drive: %+v, %v", run, err)
	}
	pend, err := s.Pending(ctx, sent.ChatID)
	if err != nil || len(pend) != 1 {
		t.Fatalf("pending: %+v, %v", pend, err)
	}
	return sent, pend[0]
}

// The offline demo activates the release-checklist skill for a message
// that names it and asks with the skill's form, the template
// release-checklist:checklist.
func TestOfflineDemoAsksWithTheSkillsForm(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "f.db"), agent.Offline{}, skills.Discover())
	sent, rq := ask(t, s, "Please prepare the release checklist")
	if rq.Title != "Release checklist" || rq.RequestKey != "release-checklist:checklist" {
		t.Fatalf("request %+v", rq.RequestItem)
	}
	if _, err := s.Answer(ctx, chat.AnswerInput{RequestID: rq.ID, Values: map[string]any{
		"version": "1.4.0", "channel": "beta", "changelog": true, "tests": false}}); err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || !strings.HasPrefix(run.Reply, "Release plan: **1.4.0** on the beta channel") || !strings.Contains(run.Reply, "waits until the tests pass") {
		t.Fatalf("run %+v, %v", run, err)
	}
}

// A real model (the fake OpenAI server) sees the skills in its system
// prompt, activates one with skill_activate and asks with its form.
func TestOpenAIModelActivatesASkill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	os.MkdirAll(filepath.Join(dir, "intake", "assets", "forms"), 0o755)
	os.WriteFile(filepath.Join(dir, "intake", "SKILL.md"), []byte("---\nname: intake\ndescription: Take in a new customer.\n---\nAsk with the form intake:customer.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "intake", "assets", "forms", "customer.json"),
		[]byte(`{"title":"New customer","fields":[{"name":"company","type":"text"}]}`), 0o644)

	turn := func(n int, text string, calls ...string) agenttest.Step {
		return func(w http.ResponseWriter, _ *http.Request) { agenttest.OpenAITurn(w, n, text, calls...) }
	}
	f := agenttest.New(t,
		turn(1, "", "skill_activate", `{"name":"intake"}`),
		turn(2, "Asking.", "input_request", `{"requestKey":"c1","source":{"kind":"template","template":"intake:customer"}}`),
	)
	p := agent.NewOpenAI(f.URL, "sk-test", "gpt-test")
	s := open(t, filepath.Join(t.TempDir(), "f.db"), p, skills.Discover(dir))
	_, rq := ask(t, s, "A new customer called")
	if rq.Title != "New customer" {
		t.Fatalf("request %+v", rq.RequestItem)
	}
	system := agenttest.Path(f.Request(0).Body, "messages", 0, "content")
	if s, _ := system.(string); !strings.Contains(s, "- intake: Take in a new customer.") {
		t.Errorf("system prompt lacks the skill:\n%v", system)
	}
	activated, _ := agenttest.Path(f.Request(1).Body, "messages", 3, "content").(string)
	if !strings.Contains(activated, `"instructions":"Ask with the form intake:customer."`) || !strings.Contains(activated, `"template":"intake:customer"`) {
		t.Errorf("skill_activate result %s", activated)
	}
}

// A skill's form that changes, or disappears, expires the requests asked
// with it when followup starts again with the skills as they are now.
func TestChangedOrRemovedFormExpiresItsRequests(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "f.db")
	home := t.TempDir()
	skill := filepath.Join(home, "release-checklist")
	os.MkdirAll(filepath.Join(skill, "assets", "forms"), 0o755)
	md, _ := os.ReadFile("builtin/release-checklist/SKILL.md")
	os.WriteFile(filepath.Join(skill, "SKILL.md"), md, 0o644)
	form := filepath.Join(skill, "assets", "forms", "checklist.json")
	os.WriteFile(form, []byte(`{"title":"Ours","fields":[{"name":"version","type":"text"}]}`), 0o644)

	s := open(t, db, agent.Offline{}, skills.Discover(home))
	_, first := ask(t, s, "the release checklist please")
	if first.Title != "Ours" {
		t.Fatalf("request %+v", first.RequestItem)
	}
	s.Close()

	os.WriteFile(form, []byte(`{"title":"Ours, changed","fields":[{"name":"version","type":"text"}]}`), 0o644)
	s = open(t, db, agent.Offline{}, skills.Discover(home))
	got, err := s.Request(ctx, first.ID)
	if err != nil || got.State != store.ReqExpired || got.ClosedReason != store.ReasonTemplateInvalidated {
		t.Fatalf("after the change: %+v, %v", got.RequestItem, err)
	}
	_, second := ask(t, s, "the release checklist please")
	if second.Title != "Ours, changed" {
		t.Fatalf("request %+v", second.RequestItem)
	}
	s.Close()

	os.RemoveAll(skill) // the built-in one comes back, with its own form
	s = open(t, db, agent.Offline{}, skills.Discover(home))
	if got, _ := s.Request(ctx, second.ID); got.State != store.ReqExpired {
		t.Fatalf("after the removal: %+v", got.RequestItem)
	}
}

// A request asked while a skill is active carries the skill (name, source,
// digest) and the candidates it was chosen from; the run records it, and
// the answer's origin tells the agent.
func TestRequestOriginNamesTheActiveSkill(t *testing.T) {
	ctx := context.Background()
	set := skills.Discover()
	s := open(t, filepath.Join(t.TempDir(), "f.db"), agent.Offline{}, set)
	sent, rq := ask(t, s, "Please prepare the release checklist")
	want, _ := set.Get("release-checklist")
	o := rq.Origin
	if o == nil || o.Skill != (chat.SkillRef{Name: "release-checklist", Source: skills.BuiltIn, Digest: want.Digest}) ||
		!slices.Contains(o.SkillCandidates, skills.Asking) || slices.Contains(o.SkillCandidates, "release-checklist") {
		t.Fatalf("origin %+v", o)
	}
	if run, _ := s.GetRun(ctx, sent.RunID); len(run.Skills) != 1 || run.Skills[0].SkillRef != o.Skill {
		t.Fatalf("the run's skills %+v", run.Skills)
	}
}

// A run whose skill changed while it waited is told so before its next
// turn, in the model's history, and no longer counts the skill as its own;
// the answer's origin names the skill it was asked under.
func TestRunIsToldItsSkillChanged(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "f.db")
	home := t.TempDir()
	skill := filepath.Join(home, "intake")
	os.MkdirAll(filepath.Join(skill, "assets", "forms"), 0o755)
	md := []byte("---\nname: intake\ndescription: Take in a new customer.\n---\nAsk with the form intake:customer.\n")
	os.WriteFile(filepath.Join(skill, "SKILL.md"), md, 0o644)
	os.WriteFile(filepath.Join(skill, "assets", "forms", "customer.json"),
		[]byte(`{"title":"New customer","fields":[{"name":"company","type":"text"}]}`), 0o644)
	turn := func(n int, text string, calls ...string) agenttest.Step {
		return func(w http.ResponseWriter, _ *http.Request) { agenttest.OpenAITurn(w, n, text, calls...) }
	}
	f := agenttest.New(t,
		turn(1, "", "skill_activate", `{"name":"intake"}`),
		turn(2, "Asking.", "input_request", `{"requestKey":"c1","source":{"kind":"template","template":"intake:customer"}}`),
		turn(3, "Noted."),
	)
	p := agent.NewOpenAI(f.URL, "sk-test", "gpt-test")
	set := skills.Discover(home)
	s := open(t, db, p, set)
	sent, rq := ask(t, s, "A new customer called")
	was, _ := set.Get("intake")
	if rq.Origin == nil || rq.Origin.Skill != (chat.SkillRef{Name: "intake", Source: home, Digest: was.Digest}) {
		t.Fatalf("origin %+v", rq.Origin)
	}
	s.Close()

	os.WriteFile(filepath.Join(skill, "SKILL.md"), append(md, "Also ask for the VAT number.\n"...), 0o644)
	s = open(t, db, p, skills.Discover(home))
	if _, err := s.Answer(ctx, chat.AnswerInput{RequestID: rq.ID, Values: map[string]any{"company": "Acme"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(f.Request(2).Body)
	body := string(raw)
	for _, want := range []string{`\"status\":\"skill_changed\"`, "the skill intake changed since you activated it",
		`\"origin\":{`, `\"skill\":{\"name\":\"intake\",\"source\":\"` + home + `\",\"digest\":\"` + was.Digest + `\"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("the model's third call lacks %s:\n%s", want, body)
		}
	}
	if run, _ := s.GetRun(ctx, sent.RunID); len(run.Skills) != 0 {
		t.Fatalf("the changed skill still counts as the run's: %+v", run.Skills)
	}
	in, _ := s.Inspect(ctx, sent.RunID)
	if !slices.ContainsFunc(in.Messages, func(m chat.Message) bool {
		return m.Content == "The skill intake changed since the agent activated it; the agent was told."
	}) {
		t.Fatalf("the user was not told: %+v", in.Messages)
	}
}
