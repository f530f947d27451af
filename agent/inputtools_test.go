package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"followup/forms"
)

// recordingHost answers every input tool with the name of the InputHost method it reached.
type recordingHost struct{}

func reply(method string) json.RawMessage { return json.RawMessage(`{"method":"` + method + `"}`) }

func (recordingHost) Capabilities(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("Capabilities")
}
func (recordingHost) List(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("List")
}
func (recordingHost) Request(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("Request")
}
func (recordingHost) ReadAnswer(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("ReadAnswer")
}
func (recordingHost) Cancel(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("Cancel")
}
func (recordingHost) Replace(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("Replace")
}
func (recordingHost) Resolve(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return reply("Resolve")
}

// TestInputCatalogueFeedsRegistryReservedNamesAndPrompt: the one table is what the
// registry registers (with authority and the table's spec), what is reserved, and what the
// system prompt lists — in that order, with nothing else.
func TestInputCatalogueFeedsRegistryReservedNamesAndPrompt(t *testing.T) {
	want := map[string]string{
		"input_capabilities": "Capabilities", "input_list": "List", "input_request": "Request",
		"input_read_answer": "ReadAnswer", "input_cancel": "Cancel", "input_replace": "Replace",
		"input_resolve": "Resolve",
	}
	r := NewRegistry()
	if err := RegisterInputTools(r, recordingHost{}); err != nil {
		t.Fatal(err)
	}
	if got := len(r.Specs()); got != len(want) || len(InputTools()) != len(want) {
		t.Fatalf("registry has %d tools, catalogue %d, want %d", got, len(InputTools()), len(want))
	}
	prompt := SystemPrompt[strings.Index(SystemPrompt, "Tools:"):strings.Index(SystemPrompt, "Rules:")]
	last := -1
	for _, tool := range InputTools() {
		reg, ok := r.Get(tool.Name)
		if !ok {
			t.Fatalf("%s is not registered as an input tool", tool.Name)
		}
		if reg.Spec.Description != tool.Spec().Description || string(reg.Spec.Parameters) != string(tool.Parameters) {
			t.Errorf("%s: registered spec differs from the catalogue's", tool.Name)
		}
		if got := string(reg.Run(context.Background(), CallContext{}, nil)); got != string(reply(want[tool.Name])) {
			t.Errorf("%s reached %s, want %s", tool.Name, got, want[tool.Name])
		}
		if !reserved(tool.Name) {
			t.Errorf("%s is not reserved", tool.Name)
		}
		line := "- " + tool.Name + ": " + tool.Spec().Description + "\n"
		at := strings.Index(prompt, line)
		if at < 0 || at < last {
			t.Errorf("the system prompt does not list %s in catalogue order", tool.Name)
		}
		last = at
	}
	if n := strings.Count(prompt, "\n- "); n != len(want) {
		t.Errorf("the prompt's tool list has %d entries, want %d:\n%s", n, len(want), prompt)
	}
}

// TestInputCatalogueServeSubset: `mcp serve` offers every input tool but input_replace and
// input_resolve (docs/input-requests.md), and its descriptions carry no note about followup's own run.
func TestInputCatalogueServeSubset(t *testing.T) {
	var served []string
	for _, tool := range InputTools() {
		if tool.Serve {
			served = append(served, tool.Name)
			if strings.Contains(tool.Description, "run") && strings.Contains(tool.Description, "pause") {
				t.Errorf("%s: its shared description speaks of followup's run: %q", tool.Name, tool.Description)
			}
		}
	}
	if got := strings.Join(served, ","); got != "input_capabilities,input_list,input_request,input_read_answer,input_cancel" {
		t.Fatalf("served %s", got)
	}
}

// TestInputToolSchemasAcceptTheContractAndRefuseNonsense: every parameters schema is a
// JSON Schema object; docs/input-requests.md's example request satisfies input_request's, and a field
// of an unknown type or a request without a source does not.
func TestInputToolSchemasAcceptTheContractAndRefuseNonsense(t *testing.T) {
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range InputTools() {
		var s jsonschema.Schema
		if err := json.Unmarshal(tool.Parameters, &s); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if s.Type != "object" {
			t.Errorf("%s: top-level type %q", tool.Name, s.Type)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		schemas[tool.Name] = rs
	}
	valid := `{"requestKey":"travel-destination-1","reason":"A destination is needed",
	 "source":{"kind":"dynamic","definition":{"title":"Add a destination","fields":[
	  {"name":"destination","type":"text","label":"Destination","required":true},
	  {"name":"transport","type":"select","options":["train",{"value":"plane","label":"Plane"}]}]}},
	 "prefill":{"destination":"Shanghai"},"supplied":{"year":2026},"context":{"operation":"plan_itinerary"}}`
	cases := []struct {
		tool, args string
		ok         bool
	}{
		{"input_request", valid, true},
		{"input_request", `{"requestKey":"k","source":{"kind":"schema","requestedSchema":{"type":"object"}}}`, true},
		{"input_request", `{"requestKey":"k"}`, false},
		{"input_request", `{"requestKey":"k","source":{"kind":"dynamic","definition":{"title":"T","fields":[{"name":"a","type":"colour"}]}}}`, false},
		{"input_request", `{"requestKey":"has space","source":{"kind":"template","template":"x"}}`, false},
		{"input_cancel", `{"requestId":"r1"}`, true},
		{"input_cancel", `{}`, false},
		{"input_resolve", `{"requestId":"r1","values":{"a":1}}`, true},
		{"input_list", `{}`, true},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.args), &v); err != nil {
			t.Fatal(err)
		}
		err := schemas[c.tool].Validate(v)
		if (err == nil) != c.ok {
			t.Errorf("%s %s: valid=%v, want %v (%v)", c.tool, c.args, err == nil, c.ok, err)
		}
	}
}

// The field types input_request advertises are forms' kinds table: a type
// added there is offered to the model, with no list typed again here.
func TestAdvertisedFieldTypesAreForms(t *testing.T) {
	t.Parallel()
	var schema struct {
		Properties struct {
			Source struct {
				Properties struct {
					Definition struct {
						Properties struct {
							Fields struct {
								Items struct {
									Properties struct {
										Type struct {
											Enum []string `json:"enum"`
										} `json:"type"`
									} `json:"properties"`
								} `json:"items"`
							} `json:"fields"`
						} `json:"properties"`
					} `json:"definition"`
				} `json:"properties"`
			} `json:"source"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schemas["input_request"], &schema); err != nil {
		t.Fatal(err)
	}
	got := schema.Properties.Source.Properties.Definition.Properties.Fields.Items.Properties.Type.Enum
	var want []string
	for _, ft := range forms.FieldTypes {
		want = append(want, string(ft))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || len(want) == 0 {
		t.Fatalf("advertised %v, forms has %v", got, want)
	}
	for _, tool := range inputCatalogue {
		if tool.Name == "input_request" && !strings.Contains(tool.Description, "Field types: "+strings.Join(want, ", ")+";") {
			t.Errorf("input_request's description: %s", tool.Description)
		}
	}
}
