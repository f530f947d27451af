package forms_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"followup/forms"
	"followup/ui/cli"
)

// docExample is one ```json block of docs/input-requests.md; its info
// string says what it is: "input" (valid: validate-input exits 0), "input
// template" (names the template "trip"), "input-invalid" (exits 1), then
// "problems" or "output" (what validate-input --json said of the block
// before),
// "answer" (values for the first input) and "received" (what the agent
// gets for that answer).
type docExample struct {
	tag  string
	body string
}

func docExamples(t *testing.T) []docExample {
	t.Helper()
	raw, err := os.ReadFile("../docs/input-requests.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	for _, m := range regexp.MustCompile("(?s)```json ([^\n]*)\n(.*?)\n```").FindAllStringSubmatch(string(raw), -1) {
		out = append(out, docExample{tag: strings.TrimSpace(m[1]), body: m[2]})
	}
	return out
}

// validateInput runs `followup validate-input - --json` on body.
func validateInput(t *testing.T, body string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"validate-input", "-", "--json"}, strings.NewReader(body), &stdout, &stderr, nil)
	return code, stdout.String()
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	for _, p := range []struct {
		s string
		v *any
	}{{a, &x}, {b, &y}} {
		d := json.NewDecoder(strings.NewReader(p.s))
		d.UseNumber()
		if err := d.Decode(p.v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, p.s)
		}
	}
	return reflect.DeepEqual(x, y)
}

// Every example of the input-request format is what the doc says it is,
// checked by the command a script author would run.
func TestInputRequestDocExamples(t *testing.T) {
	examples := docExamples(t)
	var first *forms.Declaration
	var answer forms.Values
	kinds := map[string]bool{}
	lastOutput := ""
	for i, ex := range examples {
		switch ex.tag {
		case "input", "input template":
			code, out := validateInput(t, ex.body)
			d, probs := forms.ParseDeclaration([]byte(ex.body), nil)
			if ex.tag == "input template" {
				if code != 0 || !strings.Contains(out, `"template":"trip"`) || first == nil {
					t.Fatalf("example %d: validate-input exited %d on a template request: %s", i, code, out)
				}
				d, probs = forms.ParseDeclaration([]byte(ex.body), templates{"trip": first.Definition})
				if len(probs) > 0 || len(d.Definition.Fields)-len(d.Supplied) != len(first.Definition.Fields)-2 {
					t.Fatalf("example %d with the template registered: %v", i, probs)
				}
			} else if code != 0 || !strings.Contains(out, `"valid":true`) || len(probs) > 0 {
				t.Fatalf("example %d is not valid (exit %d): %s", i, code, out)
			}
			kinds[d.Source.Kind] = true
			if first == nil {
				first = d
			}
			lastOutput = out
		case "input-invalid":
			code, out := validateInput(t, ex.body)
			if code != 1 {
				t.Fatalf("example %d exited %d: %s", i, code, out)
			}
			lastOutput = out
		case "problems", "output":
			if lastOutput == "" || !sameJSON(t, ex.body, lastOutput) {
				t.Fatalf("example %d is not what validate-input said:\n%s\n--- said\n%s", i, ex.body, lastOutput)
			}
			lastOutput = ""
		case "answer":
			in, probs := forms.ParseValues([]byte(ex.body), "/values")
			vals, more := forms.Normalize(first.Definition, in, "/values")
			if probs = append(probs, more...); len(probs) > 0 {
				t.Fatalf("example %d: the answer is refused: %v", i, probs)
			}
			if m := forms.Missing(first.Definition, first.Supplied, vals); len(m) > 0 {
				t.Fatalf("example %d leaves %v missing", i, m)
			}
			answer = vals
		case "received":
			var got struct {
				Values  map[string]any    `json:"values"`
				Origins map[string]string `json:"origins"`
				Context json.RawMessage   `json:"context"`
			}
			if err := json.Unmarshal([]byte(ex.body), &got); err != nil || answer == nil {
				t.Fatalf("example %d: %v", i, err)
			}
			want := forms.Values{}
			origins := map[string]string{}
			for k, v := range answer {
				want[k], origins[k] = v, "response"
			}
			for k, v := range first.Supplied {
				want[k], origins[k] = v, "declaration"
			}
			if !sameJSON(t, string(forms.CanonicalJSON(want)), string(forms.CanonicalJSON(got.Values))) ||
				!reflect.DeepEqual(origins, got.Origins) || !sameJSON(t, string(got.Context), string(first.Context)) {
				t.Fatalf("example %d is not what the agent receives: values %v origins %v", i, want, origins)
			}
		default:
			t.Fatalf("example %d has an unknown tag %q", i, ex.tag)
		}
	}
	for _, k := range forms.SourceKinds {
		if !kinds[k] {
			t.Errorf("no example of source kind %s", k)
		}
	}
	if answer == nil {
		t.Error("no answer example")
	}
}

// Every field type and attribute is documented.
func TestInputRequestDocNamesEveryType(t *testing.T) {
	raw, err := os.ReadFile("../docs/input-requests.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, ft := range forms.FieldTypes {
		if !strings.Contains(doc, "| `"+string(ft)+"` |") {
			t.Errorf("field type %s is not in the type table", ft)
		}
	}
	for _, attr := range []string{"name", "type", "label", "description", "placeholder", "required", "options",
		"min", "max", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems"} {
		if !strings.Contains(doc, "`"+attr+"`") {
			t.Errorf("attribute %s is not documented", attr)
		}
	}
	for _, f := range forms.Formats {
		if !strings.Contains(doc, "`"+f+"`") {
			t.Errorf("format %s is not documented", f)
		}
	}
}

type templates map[string]forms.Definition

func (m templates) Template(name string) (forms.Definition, bool) {
	d, ok := m[name]
	return d, ok
}
