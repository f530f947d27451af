package agent

import (
	"encoding/json"

	"followup/forms"
)

// The parameters schemas of the input tools (docs/input-requests.md), written by hand so that every
// client sees plain JSON Schema (no inferred "type": ["null","array"]). forms validates
// the arguments fully; these tell the model what to send.

// fieldTypesJSON is forms' field-type list (its kinds table) as the JSON
// enum the tools advertise.
var fieldTypesJSON, _ = json.Marshal(forms.FieldTypes)

var fieldSchema = `{"type":"object","required":["name","type"],"properties":{
 "name":{"type":"string","pattern":"^[A-Za-z][A-Za-z0-9_]{0,63}$","description":"unique key of the value in the answer"},
 "type":{"type":"string","enum":` + string(fieldTypesJSON) + `},
 "label":{"type":"string"},
 "description":{"type":"string"},
 "placeholder":{"type":"string"},
 "required":{"type":"boolean","description":"default true"},
 "options":{"type":"array","description":"choices of a select or multiselect: strings or {value,label}","items":{"anyOf":[
  {"type":"string"},
  {"type":"object","required":["value"],"properties":{"value":{"type":"string"},"label":{"type":"string"}}}]}},
 "min":{"type":"number"},"max":{"type":"number"},
 "minLength":{"type":"integer","minimum":0},"maxLength":{"type":"integer","minimum":0},
 "pattern":{"type":"string","description":"regular expression a text value must match"},
 "format":{"type":"string","enum":["email","uri","date","date-time"]},
 "minItems":{"type":"integer","minimum":0},"maxItems":{"type":"integer","minimum":0}}}`

var sourceSchema = `{"type":"object","required":["kind"],
 "description":"kind dynamic with an inline definition; kind schema with an MCP elicitation requestedSchema; kind template with a registered template's name",
 "properties":{
 "kind":{"type":"string","enum":["dynamic","schema","template"]},
 "definition":{"type":"object","required":["fields"],"properties":{
  "title":{"type":"string"},
  "description":{"type":"string"},
  "fields":{"type":"array","minItems":1,"maxItems":32,"items":` + fieldSchema + `}}},
 "requestedSchema":{"type":"object","description":"a flat object schema of primitive properties (MCP elicitation)"},
 "template":{"type":"string"}}}`

var requestParams = `{"type":"object","required":["requestKey","source"],"properties":{
 "requestKey":{"type":"string","pattern":"^[A-Za-z0-9._:-]{1,128}$","description":"stable key; retrying with the same key and arguments returns the same request"},
 "reason":{"type":"string","description":"why the detail is needed, shown to the user"},
 "source":` + sourceSchema + `,
 "prefill":{"type":"object","description":"suggested values the user confirms or edits"},
 "supplied":{"type":"object","description":"values already known; their fields are not asked"},
 "context":{"type":"object","description":"returned untouched with the answer"},
 "expiresAt":{"type":"string","format":"date-time","description":"RFC 3339 deadline; omit to wait until answered"}}}`

const idParams = `{"type":"object","required":["requestId"],"properties":{"requestId":{"type":"string"}}}`

var replaceParams = `{"type":"object","required":["requestId"],"properties":{"requestId":{"type":"string"},
 "digest":{"type":"string","description":"the digest you saw; refused when no longer current"},
 "source":` + sourceSchema + `,
 "prefill":{"type":"object"}}}`

const resolveParams = `{"type":"object","required":["requestId","values"],"properties":{"requestId":{"type":"string"},
 "digest":{"type":"string"},
 "values":{"type":"object","description":"values read from the user's message; the user must accept them"}}}`

const noParams = `{"type":"object","properties":{}}`
