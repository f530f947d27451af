package cli

import (
	"followup/chat"
	"followup/forms"
)

// FieldLineForTest is one field's line of a request's text.
func FieldLineForTest(r chat.RequestItem, f forms.Field) string { return fieldLine(f, r, nil) }
