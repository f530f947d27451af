package ui

import (
	"followup/chat"
	"followup/forms"
	"followup/ui/words"
)

// An MCP server's questions on screen (docs/mcp.md). MCP forbids servers
// to ask for secrets in form mode: on a server's form, a field that looks
// like one (forms.LooksSecret) carries a warning above its own
// description, where the user reads it before typing. A server's question
// is answered to the server, not the agent: its card says what was sent.

// secretWarning is the warning on such a field.
func secretWarning(server string) string {
	return "Careful: this looks like a secret (a password, token or key). MCP servers must not ask for secrets in a form: " +
		"enter one only if you trust " + server + "."
}

// shownDefinition is the definition a request's form is built from: a
// server's fields that look like secrets carry the warning. The request
// itself is unchanged: the review and the answer use its definition.
func shownDefinition(r chat.RequestView) forms.Definition {
	def := r.Definition
	if r.Owner.Kind != chat.OwnerMCPServer {
		return def
	}
	var fields []forms.Field
	for i, f := range def.Fields {
		if !forms.LooksSecret(f) {
			continue
		}
		if fields == nil {
			fields = append([]forms.Field(nil), def.Fields...)
		}
		w := secretWarning(words.AskedByName(r.Owner))
		if f.Description != "" {
			w += "\n" + f.Description
		}
		fields[i].Description = w
	}
	if fields != nil {
		def.Fields = fields
	}
	return def
}
