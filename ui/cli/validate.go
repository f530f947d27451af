package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"followup/chat"
	"followup/forms"
)

// validateInput is `followup validate-input FILE|-`; it needs no database.
// A request that names a template is checked in shape only: templates are
// registered in a database, so the template itself, and the prefill and
// supplied values against its fields, are checked when the request is
// made.
func validateInput(ctx context.Context, c *Call) error {
	raw, err := readInput(c.Arg(0), c.Stdin)
	if err != nil {
		return err
	}
	lookups := &templateLookups{}
	decl, problems := forms.ParseDeclaration(raw, lookups)
	template, problems := lookups.deferred(problems)
	if len(problems) > 0 {
		return &chat.Error{Code: chat.CodeRequestInvalid, Message: "the input request is invalid",
			Details: map[string]any{"problems": problems}}
	}
	if template != "" {
		return validTemplateRequest(c, raw, template)
	}
	asked := 0
	for _, f := range decl.Definition.Fields {
		if _, known := decl.Supplied[f.Name]; !known {
			asked++
		}
	}
	c.OK(map[string]any{"valid": true, "requestKey": decl.RequestKey, "fields": len(decl.Definition.Fields),
		"asked": asked, "complete": decl.Complete()},
		func(w io.Writer) {
			n := len(decl.Definition.Fields)
			fmt.Fprintf(w, "valid: %s asks %d of %d %s\n", decl.RequestKey, asked, n, forms.Plural(n, "field", "fields"))
		})
	return nil
}

// validTemplateRequest prints a template request found valid in shape:
// how many fields it asks is the template's to say.
func validTemplateRequest(c *Call, raw []byte, template string) error {
	var d struct {
		RequestKey string `json:"requestKey"`
	}
	json.Unmarshal(raw, &d) // it parsed above
	later := fmt.Sprintf("template %q is checked when the request is made, and the prefill and supplied values against its fields", template)
	c.OK(map[string]any{"valid": true, "requestKey": d.RequestKey, "template": template,
		"fields": nil, "asked": nil, "complete": nil, "note": later},
		func(w io.Writer) {
			fmt.Fprintf(w, "valid: %s names template %q\n  %s\n", d.RequestKey, forms.SanitizeLine(template), forms.SanitizeLine(later))
		})
	return nil
}

// templateLookups stands in for the database's templates: it knows none,
// and remembers the name a declaration asked for.
type templateLookups struct{ names []string }

func (l *templateLookups) Template(name string) (forms.Definition, bool) {
	l.names = append(l.names, name)
	return forms.Definition{}, false
}

// deferred takes out of problems the one a template lookup caused (the
// lookup cannot succeed without a database) and returns the template's
// name when the request names one and the name is well-formed. A name
// that cannot name any template is a problem here already.
func (l *templateLookups) deferred(problems []forms.Problem) (string, []forms.Problem) {
	if len(l.names) != 1 {
		return "", problems
	}
	const path = "/source/template"
	kept := problems[:0:0]
	for _, p := range problems {
		if p.Path == path && strings.HasPrefix(p.Message, "unknown template ") {
			continue
		}
		kept = append(kept, p)
	}
	name := l.names[0]
	switch {
	case len(kept) == len(problems):
		return "", problems // the lookup's problem is not listed (past the first 50)
	case !forms.ValidKey(name):
		if name == "" && slices.ContainsFunc(kept, func(p forms.Problem) bool { return p.Path == path }) {
			return "", kept // not a string: said already
		}
		return "", append(kept, forms.Problem{Path: path, Message: fmt.Sprintf("%s (got %q)", chat.TemplateNameRule, clipName(name))})
	}
	return name, kept
}

// clipName cuts a name quoted in a problem to 64 characters.
func clipName(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:63]) + "…"
	}
	return s
}
