package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

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

func execWith(ctx context.Context, cmd *cobra.Command, c *Command, a Args, env Env, out *printer) (int, error) {
	call := &Call{Env: env, Args: a, out: out, cmd: cmd}
	if drives[a.Command] && env.Service != nil {
		var stop func()
		ctx, stop = whileDriving(ctx, a, env) // mcphost.go
		defer stop()
	}
	err := asInterrupted(ctx, c.Run(ctx, call))
	var ue *UsageError
	if errors.As(err, &ue) {
		return 0, ue
	}
	return out.finish(err, env.Stderr), nil
}

// printer writes text or exactly one JSON document: once a result is
// out, nothing more is written (a signal's message included).
type printer struct {
	mu   sync.Mutex
	json bool
	w    io.Writer
	done bool
}

// claim reports whether the caller may write the result, and marks it
// written; the caller holds p.mu.
func (p *printer) claim() bool {
	if p.done {
		return false
	}
	p.done = true
	return true
}

func (p *printer) ok(v any, text func(io.Writer)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.claim() {
		return
	}
	if p.json {
		p.w.Write(chat.OKJSON(v))
		fmt.Fprintln(p.w)
		return
	}
	text(p.w)
}

// okDoc writes a finished {"ok":true,…} document (with --json only).
func (p *printer) okDoc(doc io.WriterTo) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.claim() {
		return nil
	}
	if _, err := doc.WriteTo(p.w); err != nil {
		return err
	}
	_, err := io.WriteString(p.w, "\n")
	return err
}

// finish reports err (if any) and returns the exit code: 0, 1 for a
// refusal or a failed run, 128 + the signal for an interrupted command.
func (p *printer) finish(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errRunFailed) {
		return 1 // already printed
	}
	e := chat.AsError(err)
	code := 1
	if e.Code == CodeInterrupted {
		// The shell's code for a process a signal ended: 128 + its number.
		code = 128 + int(syscall.SIGINT)
		if e.Details["signal"] == "SIGTERM" {
			code = 128 + int(syscall.SIGTERM)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.claim() {
		return code
	}
	if p.json {
		p.w.Write(chat.ErrorJSON(e))
		fmt.Fprintln(p.w)
		return code
	}
	fmt.Fprintf(stderr, "followup: %s: %s\n", e.Code, forms.SanitizeLine(e.Message))
	if ps, ok := e.Details["problems"].([]forms.Problem); ok {
		for _, pr := range ps {
			fmt.Fprintf(stderr, "  %s: %s\n", forms.SanitizeLine(cmp.Or(pr.Path, "/")), forms.SanitizeLine(pr.Message))
		}
	}
	return code
}

// parseValues reads --values-json. JSON that does not parse as an object
// of values is a malformed command line (exit 2), like a missing
// argument; values the request refuses are the request's answer (exit 1).
func parseValues(s string) (map[string]any, error) {
	vals, problems := forms.ParseValues([]byte(s), "/values")
	if len(problems) > 0 {
		msg := "--values-json is not a JSON object of values: " + problems[0].Message
		if len(problems) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(problems)-1)
		}
		return nil, &UsageError{Msg: msg, Details: map[string]any{"problems": problems}}
	}
	return vals, nil
}

// answerCheck refuses a malformed --values-json or --digest before the
// database is opened.
func answerCheck(a Args) error {
	if _, err := parseValues(a.Flag("values-json")); err != nil {
		return err
	}
	if err := chat.CheckDigestForm(a.Flag("digest")); err != nil {
		return usagef("--digest: %s", chat.AsError(err).Message)
	}
	return nil
}

func compact(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // text for people and shells: "R&D", not "R\u0026D"
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}
