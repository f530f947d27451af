package forms

import (
	"fmt"
	"strings"
	"testing"
)

// enumSchema is a server's schema with an n-option country enum, a uuid
// field and a multi-select of the same countries; dflt is the country's
// default, if any.
func enumSchema(n int, dflt string) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf("%q", fmt.Sprintf("C%03d", i))
	}
	d := ""
	if dflt != "" {
		d = `,"default":"` + dflt + `"`
	}
	return `{"type":"object","properties":{"country":{"type":"string","enum":[` + strings.Join(opts, ",") + `]` + d +
		`},"id":{"type":"string","format":"uuid"},"visited":{"type":"array","items":{"enum":[` + strings.Join(opts, ",") +
		`]}}},"required":["country"]}`
}

// A server's schema is answered as sent: 250 options and a format followup
// does not know (asked as text, its format named); an agent's declaration
// of the same keeps the limits of docs/input-requests.md.
func TestServerSchemaAnsweredAsSent(t *testing.T) {
	schema := enumSchema(250, "C249")
	d, probs := ParseServerSchema([]byte(schema))
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	country, id := d.Definition.Fields[0], d.Definition.Fields[1]
	if country.Type != Select || len(country.Options) != 250 || d.Prefill["country"] != "C249" {
		t.Fatalf("country = %s with %d options, prefill %v", country.Type, len(country.Options), d.Prefill)
	}
	if id.Type != Text || id.Format != "uuid" || !strings.Contains(strings.Join(id.Constraints(), ", "), "format uuid") {
		t.Fatalf("id = %+v, constraints %v", id, id.Constraints())
	}
	visited := make([]any, 150)
	for i := range visited {
		visited[i] = country.Options[i].Value
	}
	if _, probs := Normalize(d.Definition, map[string]any{"country": "C001", "id": "not checked here", "visited": visited}, ""); len(probs) > 0 {
		t.Fatalf("an unknown format is the server's to check: %v", probs)
	}
	_, probs = ParseDeclaration([]byte(schemaDecl(schema, "")), nil)
	assertProblems(t, probs, []string{"/source/requestedSchema/properties/country/enum", "/source/requestedSchema/properties/id/format",
		"/source/requestedSchema/properties/visited/items/enum"}, "")
}

// A server reads its schema's problems at its own paths, and a list past
// the generous bound is still refused.
func TestServerSchemaProblemsAtTheServersPaths(t *testing.T) {
	cases := []struct{ schema, path, msg string }{
		{enumSchema(3, "Narnia"), "/properties/country/default", "not one of"},
		{enumSchema(MaxServerOptions+1, ""), "/properties/country/enum", "limit is 5000"},
		{`{"type":"object","properties":{"x":{"type":"object"}}}`, "/properties/x/type", "not a primitive"},
	}
	for _, tc := range cases {
		d, probs := ParseServerSchema([]byte(tc.schema))
		if d != nil {
			t.Fatalf("accepted; want a problem at %s", tc.path)
		}
		assertProblems(t, probs, []string{tc.path}, tc.msg)
	}
}
