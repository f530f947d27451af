package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"followup/chat"
	"followup/forms"
)

// A server's progress on a tool call a headless command makes goes to
// stderr, never stored: on a terminal as one line rewritten in place (at
// most ten times a second), elsewhere as plain lines, one a second at most
// per call; the latest progress is written when the call ends.

// progressOut writes the progress lines of one command's calls.
type progressOut struct {
	w     io.Writer
	tty   bool
	every time.Duration            // between two writes of a call's progress
	calls map[string]*callProgress // by run/toolCall
	open  bool                     // a line rewritten in place waits for its newline
}

// callProgress is one call's name and latest progress.
type callProgress struct {
	name    string
	latest  string
	written time.Time
	pending bool // latest is not written yet
}

func newProgressOut(w io.Writer) *progressOut {
	p := &progressOut{w: w, tty: isTerminal(w), every: time.Second, calls: map[string]*callProgress{}}
	if p.tty {
		p.every = 100 * time.Millisecond
	}
	return p
}

// event takes an event seen while the command drives.
func (p *progressOut) event(ctx context.Context, s *chat.Service, ev chat.Event) {
	key := ev.RunID + "/" + ev.ToolCallID
	c := p.calls[key]
	switch {
	case ev.Kind == chat.EvProgress:
		if c == nil {
			c = &callProgress{name: ev.ToolCallID}
			if v, err := s.ToolStep(ctx, ev.RunID, ev.ToolCallID); err == nil {
				c.name = v.Server + " · " + v.Tool
			}
			p.calls[key] = c
		}
		c.latest, c.pending = ev.Progress, true
		if time.Since(c.written) >= p.every {
			p.write(c)
		}
	case ev.Kind == chat.EvToolStep && c != nil:
		// The call moved on (it ended, or waits for the user): its latest
		// progress stands.
		if c.pending {
			p.write(c)
		}
		p.endLine()
		delete(p.calls, key)
	}
}

func (p *progressOut) write(c *callProgress) {
	line := forms.SanitizeLine("followup: " + c.name + ": " + c.latest)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		p.open = true
	} else {
		fmt.Fprintln(p.w, line)
	}
	c.written, c.pending = time.Now(), false
}

// endLine ends a line rewritten in place, before anything else is written.
func (p *progressOut) endLine() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}
