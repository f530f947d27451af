package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"followup/agent/skills"
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
