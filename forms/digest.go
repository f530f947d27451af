package forms

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// revision is the canonical shape a digest is computed over.
type revision struct {
	Definition Definition `json:"definition"`
	Prefill    Values     `json:"prefill"`
	Supplied   Values     `json:"supplied"`
}

// Digest is the hex SHA-256 of the canonical revision: definition, prefill
// and supplied as JSON with every object's keys sorted, no HTML escaping and
// no insignificant whitespace. Equal revisions give equal digests whatever
// key order or number spelling they arrived with.
func Digest(def Definition, prefill, supplied Values) string {
	sum := sha256.Sum256(CanonicalJSON(revision{def, orEmpty(prefill), orEmpty(supplied)}))
	return hex.EncodeToString(sum[:])
}

func orEmpty(v Values) Values {
	if v == nil {
		return Values{}
	}
	return v
}

// CanonicalJSON marshals v with sorted keys (struct fields included), no HTML
// escaping and no trailing newline. v must be marshalable; the types of this
// package always are.
func CanonicalJSON(v any) []byte {
	first, err := marshalNoEscape(v)
	if err != nil {
		return nil
	}
	// Round-trip through a generic value so that struct fields sort like
	// map keys; UseNumber keeps numbers exactly as first marshalled.
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	var generic any
	if dec.Decode(&generic) != nil {
		return first
	}
	out, err := marshalNoEscape(generic)
	if err != nil {
		return first
	}
	return out
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
