package forms

import (
	"encoding/json"
	"testing"
)

// The fuzz targets check the promises that matter for hostile input: no
// panic, no hang, and a consistent answer (accepted xor problems listed).

func FuzzParseDeclaration(f *testing.F) {
	f.Add([]byte(designExample))
	f.Add([]byte(schemaDecl(mcpSchema, "")))
	for _, tc := range declCases {
		if len(tc.in) < 4096 {
			f.Add([]byte(tc.in))
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, probs := ParseDeclaration(raw, testTemplates)
		if (d == nil) == (len(probs) == 0) {
			t.Fatalf("declaration %v with %d problems", d != nil, len(probs))
		}
		if d == nil {
			return
		}
		// An accepted declaration's values are valid for its definition.
		for _, set := range []Values{d.Prefill, d.Supplied} {
			if _, p := Normalize(d.Definition, set, ""); len(p) > 0 {
				t.Fatalf("accepted values do not normalise: %v", p)
			}
		}
		_ = Digest(d.Definition, d.Prefill, d.Supplied)
		_ = Review(d.Definition, d.Supplied, d.Prefill, 40)
	})
}

func FuzzNormalize(f *testing.F) {
	seeds := []string{
		`{"destination":"Shanghai","start":"2026-05-01","travelers":2,"budget":1500.5,"transport":"train","interests":["food"],"notes":"a\nb","ok":true}`,
		`{"travelers":2.5}`, `{"travelers":"2"}`, `{"travelers":1e309}`, `{"interests":["food","food"]}`,
		`{"interests":[1]}`, `{"unknown":1}`, `{"start":"2026-02-30"}`, `{"destination":"\u001b[31m"}`,
		`{"destination":{"a":[[[[]]]]}}`, `{"ok":"true"}`, `{"transport":"boat"}`, `{"a":1,"a":2}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, probs := ParseValues(raw, "/values")
		if in == nil && len(probs) == 0 {
			t.Fatal("no values and no problems")
		}
		out, probs := Normalize(travelDef, in, "/values")
		if len(probs) > 0 {
			return
		}
		// Normal form is a fixed point: normalising it again changes nothing
		// and survives a JSON round trip (what the store does).
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		back, probs := ParseValues(b, "/values")
		if len(probs) > 0 {
			t.Fatalf("round trip: %v", probs)
		}
		again, probs := Normalize(travelDef, back, "/values")
		if len(probs) > 0 || Digest(travelDef, again, nil) != Digest(travelDef, out, nil) {
			t.Fatalf("not a fixed point: %#v vs %#v (%v)", out, again, probs)
		}
		_ = Missing(travelDef, out)
		_ = Review(travelDef, nil, out, 30)
	})
}
