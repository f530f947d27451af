package forms

import (
	"encoding/json"
	"testing"
)

func TestDigestIsCanonical(t *testing.T) {
	a := `{"requestKey":"k","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"n","type":"integer","min":1}]}},"prefill":{"n":2},"supplied":{}}`
	b := `{"supplied":{},"prefill":{"n":2.0},"source":{"definition":{"fields":[{"min":1.0,"type":"integer","name":"n"}],"title":"T"},"kind":"dynamic"},"requestKey":"k"}`
	da, pa := ParseDeclaration([]byte(a), nil)
	db, pb := ParseDeclaration([]byte(b), nil)
	if len(pa)+len(pb) > 0 {
		t.Fatal(pa, pb)
	}
	ga, gb := Digest(da.Definition, da.Prefill, da.Supplied), Digest(db.Definition, db.Prefill, db.Supplied)
	if ga != gb || len(ga) != 64 {
		t.Fatalf("digests differ: %s %s", ga, gb)
	}
	if Digest(da.Definition, Values{"n": int64(3)}, nil) == ga {
		t.Fatal("prefill does not change the digest")
	}
	if Digest(da.Definition, da.Prefill, nil) != ga {
		t.Fatal("nil and empty supplied differ")
	}
	// Options read the same from either spelling.
	var digests []string
	for _, opts := range []string{`["x"]`, `[{"value":"x"}]`} {
		d, _ := ParseDeclaration([]byte(`{"requestKey":"k","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"s","type":"select","options":`+opts+`}]}}}`), nil)
		digests = append(digests, Digest(d.Definition, nil, nil))
	}
	if digests[0] != digests[1] {
		t.Fatal("option spellings digest differently")
	}
}

func TestCanonicalJSONSortsAndKeepsHTML(t *testing.T) {
	got := string(CanonicalJSON(map[string]any{"b": "<&>", "a": []any{json.Number("1.50")}}))
	if want := `{"a":[1.50],"b":"<&>"}`; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
}
