package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"followup/chat"
	"followup/forms"
)

// Env is what a command runs with.
type Env struct {
	Service *chat.Service
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
}

// errRunFailed marks a run that ended failed (exit 1).
var errRunFailed = errors.New("run failed")

// Exec runs one subcommand and returns the exit code.
func Exec(ctx context.Context, a Args, env Env) int {
	out := &printer{json: a.JSON, w: env.Stdout}
	var err error
	switch a.Command {
	case "ask":
		err = ask(ctx, a, env.Service, out)
	case "pending":
		err = pending(ctx, a, env.Service, out)
	case "show":
		err = show(ctx, a, env.Service, out)
	case "answer":
		err = answer(ctx, a, env.Service, out)
	case "cancel":
		err = cancel(ctx, a, env.Service, out)
	case "stop":
		err = stop(ctx, a, env.Service, out)
	case "resume":
		err = resume(ctx, a, env.Service, out)
	case "inspect":
		err = inspect(ctx, a, env.Service, out)
	case "chats":
		err = chats(ctx, env.Service, out)
	case "archive", "delete":
		err = lifecycle(ctx, a, env.Service, out)
	}
	return out.finish(err, env.Stderr)
}

// ValidateInput is `followup validate-input FILE|-`; it needs no database.
func ValidateInput(a Args, env Env) int {
	out := &printer{json: a.JSON, w: env.Stdout}
	var raw []byte
	var err error
	if a.Positional[0] == "-" {
		raw, err = io.ReadAll(io.LimitReader(env.Stdin, 8<<20))
	} else {
		raw, err = os.ReadFile(a.Positional[0])
	}
	if err != nil {
		return out.finish(&chat.Error{Code: chat.CodeInvalidArgument, Message: err.Error()}, env.Stderr)
	}
	decl, problems := forms.ParseDeclaration(raw, nil)
	if len(problems) > 0 {
		return out.finish(&chat.Error{Code: chat.CodeRequestInvalid, Message: "the input request is invalid",
			Details: map[string]any{"problems": problems}}, env.Stderr)
	}
	asked := 0
	for _, f := range decl.Definition.Fields {
		if _, known := decl.Supplied[f.Name]; !known {
			asked++
		}
	}
	out.ok(map[string]any{"valid": true, "requestKey": decl.RequestKey, "fields": len(decl.Definition.Fields),
		"asked": asked, "complete": decl.Complete()},
		func(w io.Writer) {
			fmt.Fprintf(w, "valid: %s asks %d of %d field(s)\n", decl.RequestKey, asked, len(decl.Definition.Fields))
		})
	return 0
}

// printer writes text or exactly one JSON document.
type printer struct {
	json bool
	w    io.Writer
	done bool
}

func (p *printer) ok(v any, text func(io.Writer)) {
	p.done = true
	if p.json {
		p.w.Write(chat.OKJSON(v))
		fmt.Fprintln(p.w)
		return
	}
	text(p.w)
}

// okDoc writes a finished {"ok":true,…} document (with --json only).
func (p *printer) okDoc(doc io.WriterTo) error {
	p.done = true
	if _, err := doc.WriteTo(p.w); err != nil {
		return err
	}
	_, err := io.WriteString(p.w, "\n")
	return err
}

// finish reports err (if any) and returns the exit code.
func (p *printer) finish(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errRunFailed) {
		return 1 // already printed
	}
	e := chat.AsError(err)
	if p.json {
		p.w.Write(chat.ErrorJSON(e))
		fmt.Fprintln(p.w)
		return 1
	}
	fmt.Fprintf(stderr, "followup: %s: %s\n", e.Code, forms.SanitizeLine(e.Message))
	if ps, ok := e.Details["problems"].([]forms.Problem); ok {
		for _, pr := range ps {
			path := pr.Path
			if path == "" {
				path = "/"
			}
			fmt.Fprintf(stderr, "  %s: %s\n", forms.SanitizeLine(path), forms.SanitizeLine(pr.Message))
		}
	}
	return 1
}

func parseValues(s string) (map[string]any, error) {
	vals, problems := forms.ParseValues([]byte(s), "/values")
	if len(problems) > 0 {
		return nil, &chat.Error{Code: chat.CodeReplyInvalid, Message: "--values-json is not a valid JSON object of values",
			Details: map[string]any{"problems": problems}}
	}
	return vals, nil
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
