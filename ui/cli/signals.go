package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"followup/chat"
)

// CodeInterrupted is the error of a command ended by SIGINT or SIGTERM.
const CodeInterrupted = "INTERRUPTED"

// interruptGrace is how long a signalled command may take to stop by
// itself before it is ended.
const interruptGrace = time.Second

// interrupted is the cause of a context a signal cancelled.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

// interruptible returns a context under parent that SIGINT or SIGTERM
// cancels, for a command that opens the database. Work that honours the context (a
// drive, a model call) stops at once and leaves the run resumable; work
// where no context reaches (a blocking open of the file) is ended after
// interruptGrace, or at once by a second signal. Ending is always safe:
// every write is a transaction and a run's lease dies with its process.
// stop restores the default signal handling.
func interruptible(parent context.Context, out *printer, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		cancel(interrupted{sig})
		select {
		case <-sigs:
		case <-time.After(interruptGrace):
		case <-done:
			return
		}
		code := out.finish(interruptedError(interrupted{sig}, nil), stderr)
		os.Exit(code)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// asInterrupted turns the error of a command whose context a signal
// cancelled into INTERRUPTED, keeping what it said of the run; other
// errors are returned as they are.
func asInterrupted(ctx context.Context, err error) error {
	var in interrupted
	if err == nil || !errors.As(context.Cause(ctx), &in) {
		return err
	}
	var details map[string]any
	var e *chat.Error
	if errors.As(err, &e) {
		details = e.Details
	}
	return interruptedError(in, details)
}

func interruptedError(in interrupted, details map[string]any) *chat.Error {
	msg := in.Error() + " before the command finished; what it recorded is kept"
	d := map[string]any{"signal": signalName(in.sig)}
	for k, v := range details {
		d[k] = v
	}
	if run, ok := d["runId"].(string); ok && run != "" {
		msg += fmt.Sprintf(", and followup resume %s goes on with the run", run)
	}
	return &chat.Error{Code: CodeInterrupted, Message: msg, Details: d}
}

func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}
