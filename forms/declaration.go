package forms

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	declarationKey = []string{"requestKey", "reason", "source", "prefill", "supplied", "context", "expiresAt"}
	sourceKeys     = map[string]string{SourceDynamic: "definition", SourceSchema: "requestedSchema", SourceTemplate: "template"}
)

// ParseServerSchema is the declaration (source kind schema, prefilled with
// its defaults) of an MCP server's requestedSchema, answered as sent
// (docs/mcp.md): a property name that is not a field name ("first name") is
// asked under a field name made from it, and SchemaNames maps the answer
// back; an enum may be long (MaxServerOptions); a string format followup
// does not know is asked as text. Problem paths point into the schema, so
// the server reads them as its own. An agent's or MCP client's own
// declaration is refused such names and formats instead (ParseDeclaration),
// with a problem it can fix.
func ParseServerSchema(schema []byte) (*Declaration, []Problem) {
	p := problems{server: true}
	v, ok := p.decode(schema)
	if !ok {
		return nil, p.result()
	}
	def, defaults := p.importSchema(v, "")
	if p.found() > 0 {
		return nil, p.result()
	}
	d := &Declaration{Source: Source{Kind: SourceSchema, Schema: rawSpan(schema, [2]int64{0, int64(len(schema))})}, Definition: def}
	if len(defaults) > 0 {
		d.Prefill = defaults
	}
	return d, nil
}

// decode reads raw JSON of at most MaxInputSize bytes.
func (p *problems) decode(raw []byte) (any, bool) {
	if len(raw) > MaxInputSize {
		p.add("", "input is %d bytes; the limit is %d", len(raw), MaxInputSize)
		return nil, false
	}
	v, decodeProblems := decodeJSON(raw, "")
	p.merge(decodeProblems)
	return v, v != nil || p.found() == 0
}

// ParseDeclaration decodes raw input_request arguments (also the file format
// of `followup validate-input`) and validates them fully against docs/input-requests.md.
// Every problem is listed, each with a JSON Pointer into raw. On success the
// declaration's Definition is resolved whatever the source kind (t may be
// nil when no templates are registered) and Prefill/Supplied are normalised.
// A schema's defaults join Prefill unless the declaration sets that field.
func ParseDeclaration(raw []byte, t Templates) (*Declaration, []Problem) {
	var p problems
	v, ok := p.decode(raw)
	if !ok {
		return nil, p.result()
	}
	top, ok := p.asObject(v, "", "an input request")
	if !ok {
		return nil, p.result()
	}
	p.unknownKeys(top, "", declarationKey)
	d := &Declaration{}
	d.RequestKey = p.requestKey(top)
	if present(top, "reason") {
		d.Reason = p.str(top, "reason", "")
		p.checkString("/reason", "reason", d.Reason)
	}
	var defaults Values
	d.Source, d.Definition, defaults = p.source(top, raw, t)
	d.Prefill = p.valueSet(top, "prefill", d.Definition)
	d.Supplied = p.valueSet(top, "supplied", d.Definition)
	for name, val := range defaults {
		if _, set := d.Prefill[name]; !set {
			if d.Prefill == nil {
				d.Prefill = Values{}
			}
			d.Prefill[name] = val
		}
	}
	if present(top, "context") {
		d.Context = p.context(top, raw)
	}
	if present(top, "expiresAt") {
		d.ExpiresAt = p.expiresAt(top)
	}
	if p.found() > 0 {
		return nil, p.result()
	}
	return d, nil
}

// Complete reports that every required field is already supplied: there is
// nothing to ask, and the host completes the request at once (docs/input-requests.md).
func (d *Declaration) Complete() bool {
	return len(Missing(d.Definition, d.Supplied)) == 0
}

// present reports a member that is there and not null: optional members
// may be null, which models often send for "absent".
func present(o *object, key string) bool {
	v, ok := o.get(key)
	return ok && v != nil
}

func (p *problems) requestKey(top *object) string {
	v, ok := top.get("requestKey")
	if !ok {
		p.add("/requestKey", "requestKey is required")
		return ""
	}
	s, isStr := v.(string)
	switch {
	case !isStr:
		p.add("/requestKey", "requestKey must be a string, not %s", typeName(v))
	case !ValidKey(s):
		p.add("/requestKey", "%s", requestKeyProblem(s))
	}
	return s
}

// requestKeyAlphabet is what a request key is made of, for messages.
const requestKeyAlphabet = "A–Z a–z 0–9 . _ : -"

// requestKeyProblem says what is wrong with an invalid request key: the
// characters it may not use (each named once, with where the first is),
// its length, or both — so the fix is plain.
func requestKeyProblem(s string) string {
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return fmt.Sprintf("requestKey is empty; it needs 1–%d characters of %s", MaxRequestKey, requestKeyAlphabet)
	}
	var bad []string
	first := 0
	for i, r := range []rune(s) {
		if r < utf8.RuneSelf && ValidKey(string(r)) {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		name := strconv.QuoteRune(r)
		if r == ' ' {
			name = "space"
		}
		if !slices.Contains(bad, name) {
			bad = append(bad, name)
		}
	}
	var wrong []string
	if len(bad) > 0 {
		wrong = append(wrong, fmt.Sprintf("requestKey may use only %s — %s %s not allowed (the first at character %d)",
			requestKeyAlphabet, joinAnd(bad), pick(len(bad) == 1, "is", "are"), first))
	}
	if n > MaxRequestKey {
		wrong = append(wrong, fmt.Sprintf("requestKey is %d characters long; the limit is %d", n, MaxRequestKey))
	}
	return strings.Join(wrong, "; ")
}

// source resolves the definition from whichever kind is declared.
func (p *problems) source(top *object, raw []byte, t Templates) (Source, Definition, Values) {
	var src Source
	var def Definition
	sv, ok := top.get("source")
	if !ok {
		p.add("/source", "source is required")
		return src, def, nil
	}
	so, ok := p.asObject(sv, "/source", "source")
	if !ok {
		return src, def, nil
	}
	p.unknownKeys(so, "/source", []string{"kind", "definition", "requestedSchema", "template"})
	if _, has := so.get("kind"); !has {
		p.add("/source/kind", "source.kind is required (dynamic, schema or template)")
		return src, def, nil
	}
	src.Kind = p.str(so, "kind", "/source")
	want, known := sourceKeys[src.Kind]
	if !known {
		p.add("/source/kind", "unknown source kind %q (known: dynamic, schema, template)", clip(src.Kind))
		return src, def, nil
	}
	for _, kind := range SourceKinds {
		if k := sourceKeys[kind]; kind != src.Kind && present(so, k) {
			p.add("/source/"+k, "%s does not belong to source kind %s", k, src.Kind)
		}
	}
	if !present(so, want) {
		p.add("/source/"+want, "source kind %s needs %s", src.Kind, want)
		return src, def, nil
	}
	var defaults Values
	switch src.Kind {
	case SourceDynamic:
		def = p.definition(so.vals["definition"], "/source/definition")
		p.checkDefinition(def, "/source/definition", "/source/definition/fields", func(i int, attr string, sub ...any) string {
			return ptr(ptr("/source/definition/fields", i, attr), sub...)
		})
		src.Definition = &def
	case SourceSchema:
		def, defaults = p.importSchema(so.vals["requestedSchema"], "/source/requestedSchema")
		src.Schema = json.RawMessage(rawSpan(raw, so.spans["requestedSchema"]))
	case SourceTemplate:
		src.Template = p.str(so, "template", "/source")
		def = p.template(t, src.Template)
	}
	return src, def, defaults
}

func (p *problems) template(t Templates, name string) Definition {
	const path = "/source/template"
	if t == nil {
		p.add(path, "unknown template %q: no templates are registered", clip(name))
		return Definition{}
	}
	def, ok := t.Template(name)
	if !ok {
		p.add(path, "unknown template %q", clip(name))
		return Definition{}
	}
	// A host template is checked like any definition: a broken template
	// must not produce a form that cannot be answered.
	p.checkDefinition(def, path, path, func(i int, attr string, sub ...any) string { return path })
	return def
}

// valueSet validates prefill or supplied against the definition.
func (p *problems) valueSet(top *object, key string, def Definition) Values {
	if !present(top, key) {
		return nil
	}
	o, ok := p.asObject(top.vals[key], "/"+key, key)
	if !ok || len(def.Fields) == 0 {
		// No form to check the values against (an unknown template, a
		// schema without properties): its problem is reported already.
		return nil
	}
	vals, probs := Normalize(def, plain(o).(map[string]any), "/"+key)
	p.merge(probs)
	return vals
}

func (p *problems) context(top *object, raw []byte) json.RawMessage {
	v := top.vals["context"]
	if _, ok := v.(*object); !ok {
		p.add("/context", "context must be a JSON object, not %s", typeName(v))
		return nil
	}
	compact := rawSpan(raw, top.spans["context"])
	if n := utf8.RuneCount(compact); n > MaxContext {
		p.add("/context", "context is %d characters of JSON; the limit is %d", n, MaxContext)
	}
	return json.RawMessage(compact)
}

func (p *problems) expiresAt(top *object) *time.Time {
	s, ok := top.vals["expiresAt"].(string)
	if !ok {
		p.add("/expiresAt", "expiresAt must be an RFC 3339 string")
		return nil
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		p.add("/expiresAt", "expiresAt %q is not an RFC 3339 time", clip(s))
		return nil
	}
	return &at
}
