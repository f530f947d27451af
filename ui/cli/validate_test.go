package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A request that names a template is valid in shape when the name can
// name one: validate-input has no database to know the templates, so it
// says the template is checked when the request is made. Everything else
// about the request is still checked.
func TestValidateInputTemplateRequest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	db := filepath.Join(dir, "unused.db")
	good := file("good.json", `{"requestKey":"trip-2","source":{"kind":"template","template":"trip"},"supplied":{"travelers":2}}`)
	r := runCLI(t, db, "validate-input", good, "--json")
	doc := decode(t, r)
	if r.code != 0 || doc["valid"] != true || doc["template"] != "trip" || doc["requestKey"] != "trip-2" || doc["fields"] != nil {
		t.Fatalf("a template request: exit %d, %s", r.code, r.stdout)
	}
	text := runCLI(t, db, "validate-input", good)
	if text.code != 0 || !strings.Contains(text.stdout, `valid: trip-2 names template "trip"`) ||
		!strings.Contains(text.stdout, `template "trip" is checked when the request is made`) {
		t.Fatalf("text: exit %d, %q %q", text.code, text.stdout, text.stderr)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("validate-input created a database: %v", err)
	}

	for _, tc := range []struct {
		name, body string
		want       map[string]string // path: part of its message
	}{
		{"bad name", `{"requestKey":"k","source":{"kind":"template","template":"a b"}}`,
			map[string]string{"/source/template": `a template name is 1–128 of A–Z, a–z, 0–9 and . _ : - (got "a b")`}},
		{"not a string", `{"requestKey":"k","source":{"kind":"template","template":5}}`,
			map[string]string{"/source/template": "template must be a string, not number"}},
		{"no name", `{"requestKey":"k","source":{"kind":"template"}}`,
			map[string]string{"/source/template": "source kind template needs template"}},
		{"values not an object", `{"requestKey":"k","source":{"kind":"template","template":"trip"},"supplied":5}`,
			map[string]string{"/supplied": "supplied must be an object"}},
		{"other problems", `{"requestKey":"k k","source":{"kind":"template","template":"trip"},"bogus":1}`,
			map[string]string{"": `unknown key "bogus"`, "/requestKey": "requestKey may use only"}},
	} {
		r := runCLI(t, db, "validate-input", file(strings.ReplaceAll(tc.name, " ", "-")+".json", tc.body), "--json")
		e, _ := decode(t, r)["error"].(map[string]any)
		ps, _ := e["details"].(map[string]any)["problems"].([]any)
		if r.code != 1 || e["code"] != "INPUT_REQUEST_INVALID" || len(ps) != len(tc.want) {
			t.Errorf("%s: exit %d, %s", tc.name, r.code, r.stdout)
			continue
		}
		for _, p := range ps {
			p := p.(map[string]any)
			if want, ok := tc.want[p["path"].(string)]; !ok || !strings.Contains(p["message"].(string), want) {
				t.Errorf("%s: problem %v, want %v", tc.name, p, tc.want)
			}
		}
	}
}
