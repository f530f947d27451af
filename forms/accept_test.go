package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseDeclarationAccepts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		in       string
		complete bool
		check    func(t *testing.T, d *Declaration)
	}{
		{"design example", designExample, false, nil},
		{"null optional members", decl(`[`+textField+`]`, `,"reason":null,"prefill":null,"supplied":null,"context":null,"expiresAt":null`), false, nil},
		{"options in both spellings", decl(`[{"name":"a","type":"select","options":["x",{"value":"y","label":"Why"}]}]`, `,"prefill":{"a":"y"}`), false,
			func(t *testing.T, d *Declaration) {
				if got := d.Definition.Fields[0].Options; !reflect.DeepEqual(got, []Option{{Value: "x"}, {Value: "y", Label: "Why"}}) {
					t.Errorf("options %v", got)
				}
			}},
		{"required defaults to true", decl(`[`+textField+`]`, ``), false,
			func(t *testing.T, d *Declaration) {
				if !d.Definition.Fields[0].Required {
					t.Error("required is false")
				}
			}},
		{"everything supplied completes at once", decl(`[`+textField+`,{"name":"b","type":"text","required":false}]`, `,"supplied":{"a":"x"}`), true, nil},
		{"32 fields", decl(manyFields(32), ``), false, nil},
		{"100 options", decl(`[{"name":"a","type":"multiselect","options":`+manyOptions(100)+`,"minItems":100}]`, ``), false, nil},
		{"longest strings", decl(`[{"name":"a`+strings.Repeat("b", 63)+`","type":"text","label":"`+strings.Repeat("é", MaxString)+`"}]`, ``), false, nil},
		{"longest request key", strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, `"`+strings.Repeat("a.:_-", 25)+`abc"`, 1), false, nil},
		{"nesting of exactly 32", decl(`[`+textField+`]`, `,"context":{"a":`+strings.Repeat(`[`, 30)+strings.Repeat(`]`, 30)+`}`), false, nil},
		{"context kept as written", decl(`[`+textField+`]`, `,"context": { "z" : 1 , "a" : [ 1.50 ] }`), false,
			func(t *testing.T, d *Declaration) {
				if string(d.Context) != `{"z":1,"a":[1.50]}` {
					t.Errorf("context %s", d.Context)
				}
			}},
		{"expiresAt with offset", decl(`[`+textField+`]`, `,"expiresAt":"2026-03-01T10:00:00.5+02:00"`), false,
			func(t *testing.T, d *Declaration) {
				if d.ExpiresAt == nil || d.ExpiresAt.UTC().Hour() != 8 {
					t.Errorf("expiresAt %v", d.ExpiresAt)
				}
			}},
		{"template", `{"requestKey":"t","source":{"kind":"template","template":"travel"},"supplied":{"travelers":2}}`, false,
			func(t *testing.T, d *Declaration) {
				if d.Definition.Title != "Plan a trip" || d.Source.Template != "travel" {
					t.Errorf("definition %+v", d.Definition)
				}
			}},
		{"integral number for integer", decl(`[{"name":"a","type":"integer"},`+textField2+`]`, `,"supplied":{"a":3.0}`), false,
			func(t *testing.T, d *Declaration) {
				if d.Supplied["a"] != int64(3) {
					t.Errorf("supplied %#v", d.Supplied)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, probs := ParseDeclaration([]byte(tc.in), testTemplates)
			if len(probs) > 0 {
				t.Fatalf("problems: %v", probs)
			}
			if d.Complete() != tc.complete {
				t.Errorf("Complete() = %v", d.Complete())
			}
			if tc.check != nil {
				tc.check(t, d)
			}
		})
	}
}

func TestBrokenTemplateIsRefused(t *testing.T) {
	broken := templateMap{"bad": {Fields: []Field{{Name: "x", Type: "colour"}}}}
	_, probs := ParseDeclaration([]byte(`{"requestKey":"t","source":{"kind":"template","template":"bad"}}`), broken)
	assertProblems(t, probs, []string{"/source/template"}, "unknown field type")
}

func TestCapabilitiesJSON(t *testing.T) {
	b, err := json.Marshal(Capabilities())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"fieldTypes":["text","textarea","number","integer","boolean","select","multiselect"]`,
		`"sourceKinds":["dynamic","schema","template"]`, `"fields":[1,32]`, `"stringLength":4096`, `"depth":32`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("capabilities lack %s: %s", want, b)
		}
	}
}
