package cli

import (
	"context"

	"followup/chat"
	"followup/forms"
)

// FieldLineForTest is one field's line of a request's text.
func FieldLineForTest(r chat.RequestItem, f forms.Field) string { return fieldLine(f, r, nil) }

// Exec runs one command line on env.Service, which stands in for the
// database the command would open, and returns the exit code.
func Exec(ctx context.Context, argv []string, env Env) int { return run(ctx, argv, env, nil) }
