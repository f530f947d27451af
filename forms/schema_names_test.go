package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Property names that are not field names get field names made from
// them: valid names are kept first, the others made unique in order.
func TestFieldNamesOfSchemaProperties(t *testing.T) {
	long := strings.Repeat("x", 70)
	got := fieldNames([]string{"first name", "first_name", "e-mail", "2fa code", "ünï", "--", long, long + " ", "plain"})
	want := map[string]string{
		"first name": "first_name_2", "first_name": "first_name", "e-mail": "e_mail", "2fa code": "field_2fa_code",
		"ünï": "n", "--": "field", long: long[:64], long + " ": long[:62] + "_2", "plain": "plain",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fieldNames = %v\nwant %v", got, want)
	}
	for p, f := range got {
		if !validName(f) {
			t.Errorf("%q became %q, not a valid field name", p, f)
		}
	}
}

// The form of such a server's schema is valid, labelled with the server's
// names, and an answer maps back to them; an agent's own declaration of it
// is refused at each such name, so it always reads the names it declared.
func TestSchemaWithPropertyNamesThatAreNotFieldNames(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"first name":{"type":"string","default":"Bo"},"e-mail":{"type":"string","title":"Your e-mail"}},"required":["first name"]}`)
	raw := []byte(`{"requestKey":"k","source":{"kind":"schema","requestedSchema":` + string(schema) + `}}`)
	if _, probs := ParseDeclaration(raw, nil); len(probs) != 2 || probs[0].Path != "/source/requestedSchema/properties/first name" {
		t.Fatalf("an agent's declaration: problems %v", probs)
	}
	d, probs := ParseServerSchema(schema)
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	f := d.Definition.Fields
	if len(f) != 2 || f[0].Name != "first_name" || f[0].Label != "first name" || !f[0].Required || f[1].Name != "e_mail" || f[1].Label != "Your e-mail" {
		t.Fatalf("fields = %+v", f)
	}
	if d.Prefill["first_name"] != "Bo" {
		t.Fatalf("prefill = %v", d.Prefill)
	}
	back := ToSchemaNames(map[string]any{"first_name": "Ada", "e_mail": "a@b.co"}, SchemaNames(schema))
	if !reflect.DeepEqual(back, map[string]any{"first name": "Ada", "e-mail": "a@b.co"}) {
		t.Fatalf("back = %v", back)
	}
	if SchemaNames(json.RawMessage(`{"type":"object","properties":{"ok":{"type":"string"}}}`)) != nil {
		t.Fatal("a schema of field names needs no mapping")
	}
}
