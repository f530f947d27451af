package chat

import (
	"context"

	"followup/agent"
	"followup/agent/skills"
	"followup/forms"
	"followup/store"
)

// TemplateNameRule says what a template name may be (forms.ValidKey): the
// rule RegisterTemplate applies, and validate-input checks in a request
// that names one.
const TemplateNameRule = "a template name is 1–128 of A–Z, a–z, 0–9 and . _ : -"

// RegisterTemplate registers (or replaces) a host template that requests
// can name with source kind template. The definition is checked like any
// declaration's, so a template can never produce a form nobody can answer.
// Requests already opened from it keep the revision they were opened with.
func (s *Service) RegisterTemplate(ctx context.Context, name string, def forms.Definition) error {
	if !forms.ValidKey(name) {
		return problemsError(CodeInvalidArgument, "the template name is invalid", []forms.Problem{{
			Path: "/name", Message: TemplateNameRule}})
	}
	decl := map[string]any{"requestKey": "template", "source": map[string]any{"kind": forms.SourceDynamic, "definition": def}}
	parsed, problems := forms.ParseDeclaration([]byte(mustJSON(decl)), nil)
	if len(problems) > 0 {
		return problemsError(CodeRequestInvalid, "the template's definition is invalid", problems)
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		return s.store.UpsertTemplate(ctx, tx, store.Template{Name: name, Definition: mustJSON(parsed.Definition),
			State: store.TemplateActive, UpdatedAt: s.nowMS()})
	})
}

// InvalidateTemplate withdraws a template: new requests can no longer name
// it, and its pending requests expire with reason template_invalidated and
// their runs are told, as for a passed deadline. Nothing times out silently.
func (s *Service) InvalidateTemplate(ctx context.Context, name string) error {
	return s.expireWhere(ctx, store.ReasonTemplateInvalidated, func(tx *txn) ([]store.Request, error) {
		if _, err := s.store.GetTemplate(ctx, tx, name); err != nil {
			return nil, notFound(err, "template", name)
		}
		if err := s.store.SetTemplateState(ctx, tx, name, store.TemplateInvalidated, s.nowMS()); err != nil {
			return nil, err
		}
		return s.store.PendingTemplateRequests(ctx, tx, name)
	})
}

// Skills are the skills the agent may use, as found when the host opened.
func (s *Service) Skills() *skills.Set { return s.skills }

// useSkills offers the agent its skills (docs/skills.md); SyncTemplates
// makes their forms templates. Without a set given, the built-in skills
// are offered and the templates left as they are.
func (s *Service) useSkills(set *skills.Set) error {
	s.syncSkills = set != nil
	if set == nil {
		set = skills.Discover()
	}
	s.system, s.skills = agent.SystemPrompt+set.Prompt(), set
	return set.Register(s.tools)
}

// SyncTemplates makes the forms of the skills given to Open the templates
// SKILL:NAME: a form new or changed is registered, and a template whose
// form changed or is gone first expires its pending requests
// (InvalidateTemplate). Open does it, unless Options.SyncTemplatesLater.
func (s *Service) SyncTemplates(ctx context.Context) error {
	if !s.syncSkills || s.ReadOnly() != "" {
		return nil
	}
	defs := s.skills.Templates()
	have, err := s.store.Templates(ctx, s.reader())
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, t := range have {
		if !skills.IsTemplate(t.Name) {
			continue
		}
		known[t.Name] = true
		def, ok := defs[t.Name]
		same := ok && t.Definition == mustJSON(def)
		if t.State == store.TemplateActive && !same {
			if err := s.InvalidateTemplate(ctx, t.Name); err != nil {
				return err
			}
		}
		if ok && (t.State != store.TemplateActive || !same) {
			if err := s.RegisterTemplate(ctx, t.Name, def); err != nil {
				return err
			}
		}
	}
	for name, def := range defs {
		if !known[name] {
			if err := s.RegisterTemplate(ctx, name, def); err != nil {
				return err
			}
		}
	}
	return nil
}
