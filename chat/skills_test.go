package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"followup/agent/skills"
	"followup/store"
)

// An MCP client that asks with a skill's form through mcp serve reads,
// in every result about it, the skill it asked under.
func TestServeResultsCarryTheSkillOfItsForm(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "f.db"), Skills: skills.Discover()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, json.RawMessage(`{"requestKey":"r1","source":{"kind":"template","template":"release-checklist:checklist"}}`)))["requestId"].(string)
	sk, _ := s.skills.Get("release-checklist")
	want := SkillRef{"release-checklist", skills.BuiltIn, sk.Digest}
	skillOf := func(v any) SkillRef {
		var o Origin
		raw, _ := json.Marshal(v)
		json.Unmarshal(raw, &o)
		return o.Skill
	}
	if got := skillOf(ok(t, ss.ReadAnswer(ctx, idArg(id)))["origin"]); got != want {
		t.Fatalf("pending read: %+v", got)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{
		"version": "2.0.0", "channel": "stable", "changelog": true, "tests": true}}); err != nil {
		t.Fatal(err)
	}
	r := ok(t, ss.Wait(ctx, id, time.Second))
	res, _ := r["result"].(map[string]any)
	origin, _ := res["origin"].(map[string]any)
	if r["origin"] != nil || skillOf(origin) != want || origin["sessionId"] != ss.rowID() {
		t.Fatalf("answered: %v", r)
	}
}

// A skill's form is a template once Open returns, or, with
// SyncTemplatesLater, once SyncTemplates ran (the chat screen reads its
// first chat before that write).
func TestSkillTemplatesSyncLater(t *testing.T) {
	ctx := context.Background()
	has := func(s *Service) bool {
		ts, err := s.store.Templates(ctx, s.reader())
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(ts, func(tp store.Template) bool {
			return tp.Name == "release-checklist:checklist" && tp.State == store.TemplateActive
		})
	}
	path := filepath.Join(t.TempDir(), "f.db")
	s, err := Open(ctx, Options{DBPath: path, Skills: skills.Discover(), SyncTemplatesLater: true})
	if err != nil {
		t.Fatal(err)
	}
	if has(s) {
		t.Fatal("the template was written before SyncTemplates")
	}
	if err := s.SyncTemplates(ctx); err != nil || !has(s) {
		t.Fatalf("after SyncTemplates: %v, registered %v", err, has(s))
	}
	s.Close()
	s, err = Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "g.db"), Skills: skills.Discover()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !has(s) {
		t.Fatal("Open did not register the skills' templates")
	}
}
