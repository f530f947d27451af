package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"followup/agent"
	"followup/agent/skills"
	"followup/store"
)

// What a run records of its skills, and the origin its requests carry
// (docs/skills.md).

// SkillRef names a skill as a run activated it: the digest is its SKILL.md's.
type SkillRef struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Digest string `json:"digest"`
}

// ActiveSkill is a skill a run activated, with the other skills it was
// chosen from (those listed to the model then).
type ActiveSkill struct {
	SkillRef
	Candidates []string `json:"candidates"`
}

// Origin is what a request asked while a skill was active carries: that
// skill and the candidates it was chosen from.
type Origin struct {
	Skill           SkillRef `json:"skill"`
	SkillCandidates []string `json:"skillCandidates"`
}

// While says the skill a request was asked under, " while using NAME",
// "" without one (the name is the skill's own: sanitise it to draw it).
func (o *Origin) While() string {
	if o == nil {
		return ""
	}
	return " while using " + o.Skill.Name
}

// maxCandidates bounds the candidates recorded with an activation.
const maxCandidates = 32

func runSkills(r store.Run) []ActiveSkill {
	var out []ActiveSkill
	if r.Skills.Valid {
		json.Unmarshal([]byte(r.Skills.String), &out)
	}
	return out
}

func setRunSkills(r *store.Run, active []ActiveSkill) {
	r.Skills = nullString("")
	if len(active) > 0 {
		r.Skills = nullString(mustJSON(active))
	}
}

// noteActivation records on run a skill_activate call that succeeded: the
// skill becomes the run's newest (activated again, it moves to the end).
func (s *Service) noteActivation(run *store.Run, call agent.ToolCall, result []byte) {
	var res struct {
		OK bool `json:"ok"`
		SkillRef
	}
	if call.Name != "skill_activate" || json.Unmarshal(result, &res) != nil || !res.OK {
		return
	}
	a := ActiveSkill{SkillRef: res.SkillRef, Candidates: []string{}}
	for _, sk := range s.skills.Active() {
		if sk.Name != a.Name && len(a.Candidates) < maxCandidates {
			a.Candidates = append(a.Candidates, sk.Name)
		}
	}
	active := slices.DeleteFunc(runSkills(*run), func(old ActiveSkill) bool { return old.Name == a.Name })
	setRunSkills(run, append(active, a))
}

// originOf is the origin of a request the run asks now: the skill it
// activated last — the asking guide, supplemental-information, only when
// no other is active, as it goes with any skill.
func originOf(run store.Run) *Origin {
	active := runSkills(run)
	if len(active) == 0 {
		return nil
	}
	chosen := active[len(active)-1]
	for _, a := range active {
		if a.Name != skills.Asking {
			chosen = a
		}
	}
	return &Origin{Skill: chosen.SkillRef, SkillCandidates: chosen.Candidates}
}

// stampOrigin sets the origin of a request about to be opened: the skill
// its run has active, else the skill whose form it asks with (a serve
// client's request names one as its template).
func (s *Service) stampOrigin(ctx context.Context, tx store.Handle, r *store.Request) error {
	if r.Origin.Valid {
		return nil
	}
	var o *Origin
	if r.RunID.Valid {
		run, err := s.store.GetRun(ctx, tx, r.RunID.String)
		if err != nil {
			return err
		}
		o = originOf(run)
	}
	if name, _, _ := strings.Cut(r.Template, ":"); o == nil && skills.IsTemplate(r.Template) {
		if sk, ok := s.skills.Get(name); ok {
			o = &Origin{Skill: SkillRef{sk.Name, sk.Source, sk.Digest}, SkillCandidates: []string{}}
		}
	}
	if o != nil {
		r.Origin = nullString(mustJSON(o))
	}
	return nil
}

// tellSkillChanges tells a run's model, before its next turn, of each skill
// it activated that has changed or gone since (another process, a
// restart): {"status": "skill_changed", …} in its history, with a notice
// for the user, and the skill is no longer the run's. Nothing is swapped
// silently.
func (s *Service) tellSkillChanges(ctx context.Context, run store.Run) error {
	changed := func(run store.Run) (kept []ActiveSkill, told []map[string]any) {
		for _, a := range runSkills(run) {
			now, ok := s.skills.Get(a.Name)
			switch {
			case ok && now.Digest == a.Digest:
				kept = append(kept, a)
			case ok:
				told = append(told, map[string]any{"status": "skill_changed", "skill": a.Name, "was": a.SkillRef,
					"now":     SkillRef{now.Name, now.Source, now.Digest},
					"message": fmt.Sprintf("the skill %s changed since you activated it: call skill_activate again before you go on with it", a.Name)})
			default:
				told = append(told, map[string]any{"status": "skill_changed", "skill": a.Name, "was": a.SkillRef, "now": nil,
					"message": fmt.Sprintf("the skill %s is gone since you activated it: go on without it", a.Name)})
			}
		}
		return kept, told
	}
	if _, told := changed(run); len(told) == 0 || store.RunEnded(run.State) {
		return nil
	}
	runID := run.ID
	return s.write(ctx, func(tx *txn) error {
		var err error
		if run, err = s.store.GetRun(ctx, tx, runID); err != nil || store.RunEnded(run.State) {
			return err
		}
		tx.emit(Event{Kind: EvMessage, ChatID: run.ChatID, RunID: runID})
		kept, told := changed(run)
		now := s.nowMS()
		for _, t := range told {
			if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleUser,
				Content: mustJSON(t), ForModel: true, CreatedAt: now}); err != nil {
				return err
			}
			what := "changed"
			if t["now"] == nil {
				what = "is gone"
			}
			if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleNotice,
				Content: fmt.Sprintf("The skill %s %s since the agent activated it; the agent was told.", t["skill"], what),
				Visible: true, CreatedAt: now}); err != nil {
				return err
			}
		}
		setRunSkills(&run, kept)
		run.UpdatedAt = now
		return s.store.UpdateRun(ctx, tx, run)
	})
}
