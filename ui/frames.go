package ui

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// frames draws the screen's views on the terminal, only when a view
// changes. Bubble Tea's own renderer wakes at its frame rate whether or not
// anything changed; with a form open and nothing happening those wakes
// were the screen's whole idle cost. frames draws a changed view at once
// when the last frame is older than every, and otherwise when it is: at
// most one frame per interval however fast views come (a streaming reply),
// nothing done while nothing changes, and a key's echo not held for a tick.
//
// A frame rewrites only the lines that differ from the ones on the
// terminal, each positioned absolutely and truncated to the width; after a
// resize every line is rewritten.
type frames struct {
	out   io.Writer
	every time.Duration

	mu            sync.Mutex
	view          string // the newest view given
	dirty         bool   // view is not yet on the terminal
	repaint       bool   // rewrite every line (the size changed)
	paused        bool   // the terminal is given back (suspended): draw nothing
	width, height int    // the terminal's; 0 when unknown

	kick    chan struct{} // a view waits: buffered, one
	done    chan struct{} // stop asked
	stopped chan struct{} // the drawing goroutine ended

	first     chan struct{} // closed by ready; nil when the first view need not wait
	readyOnce sync.Once

	// Owned by whoever draws (the drawing goroutine, then stop), under
	// drawing.
	drawing sync.Mutex
	shown   []string // the lines on the terminal; nil before the first frame
	buf     bytes.Buffer
}

// newFrames returns frames drawing on out, at most one frame per every,
// for a terminal of width×height (0 when unknown). start begins drawing.
func newFrames(out io.Writer, every time.Duration, width, height int) *frames {
	return &frames{out: out, every: every, width: width, height: height,
		kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
}

// holdFirst makes the first frame wait, for at most one interval, until
// ready: a view that stands for a moment (the screen's one line while its
// chat loads) is not drawn when the one that follows comes soon. When it
// is drawn, the ready view is drawn as soon as it comes, not an interval
// later. Call it before start.
func (f *frames) holdFirst() { f.first = make(chan struct{}) }

// ready says the newest view is the one worth drawing first.
func (f *frames) ready() {
	if f.first != nil {
		f.readyOnce.Do(func() { close(f.first) })
	}
}

// start begins drawing views as they come, on a goroutine of its own.
func (f *frames) start() { go f.loop() }

// stop ends the drawing goroutine and draws the newest view, if it is not
// on the terminal yet: the last frame is never lost.
func (f *frames) stop() {
	close(f.done)
	<-f.stopped
	f.draw()
}

// write gives the newest view. It returns at once: the frame is drawn on
// the drawing goroutine. A view the same as the one before is no frame.
func (f *frames) write(view string) {
	f.mu.Lock()
	if view == f.view && !f.repaint {
		f.mu.Unlock()
		return
	}
	f.view, f.dirty = view, true
	f.mu.Unlock()
	f.wake()
}

// resize tells of the terminal's new size: the next frame rewrites every
// line.
func (f *frames) resize(width, height int) {
	f.mu.Lock()
	f.width, f.height = width, height
	f.repaint, f.dirty = true, true
	f.mu.Unlock()
	f.wake()
}

func (f *frames) wake() {
	select {
	case f.kick <- struct{}{}:
	default: // a frame is already due
	}
}

// loop draws each view that comes, then rests for the interval: views that
// come meanwhile make one frame when it ends. Between views it waits on a
// channel, with no timer.
func (f *frames) loop() {
	defer close(f.stopped)
	rest := time.NewTimer(f.every)
	if f.first != nil {
		select {
		case <-f.first:
		case <-rest.C:
			// What stands while the first view is awaited, with no rest
			// after it: the awaited view is drawn the moment it comes.
			select {
			case <-f.kick: // for the view drawn now
			default:
			}
			f.draw()
		case <-f.done:
			return
		}
	}
	rest.Stop()
	for {
		select {
		case <-f.kick:
		case <-f.done:
			return
		}
		f.draw()
		rest.Reset(f.every)
		select {
		case <-rest.C:
		case <-f.done:
			rest.Stop()
			return
		}
	}
}

// pause stops drawing until resume, for a terminal given back; a frame
// being written is finished first.
func (f *frames) pause() {
	f.drawing.Lock()
	defer f.drawing.Unlock()
	f.mu.Lock()
	f.paused = true
	f.mu.Unlock()
}

// resume draws again, every line: the terminal was someone else's.
func (f *frames) resume() {
	f.mu.Lock()
	f.paused = false
	f.repaint, f.dirty = true, true
	f.mu.Unlock()
	f.wake()
}

// draw writes the newest view if it is not on the terminal yet.
func (f *frames) draw() {
	f.drawing.Lock()
	defer f.drawing.Unlock()
	f.mu.Lock()
	if f.paused {
		f.mu.Unlock()
		return
	}
	view, dirty, all, width, height := f.view, f.dirty, f.repaint, f.width, f.height
	f.dirty, f.repaint = false, false
	f.mu.Unlock()
	if !dirty {
		return
	}
	lines := strings.Split(view, "\n")
	if height > 0 && len(lines) > height {
		// What does not fit is the top: the screen is drawn from its
		// bottom, where the composer is.
		lines = lines[len(lines)-height:]
	}
	if all {
		f.shown = nil
	}
	f.buf.Reset()
	for i, line := range lines {
		if f.shown != nil && i < len(f.shown) && f.shown[i] == line {
			continue
		}
		f.buf.WriteString(ansi.CursorPosition(1, i+1))
		if width > 0 {
			line = ansi.Truncate(line, width, "")
		}
		f.buf.WriteString(line)
		if width <= 0 || ansi.StringWidth(line) < width {
			f.buf.WriteString(ansi.EraseLineRight)
		}
	}
	if f.shown == nil || len(f.shown) > len(lines) {
		// Lines left below from before: a taller frame, or whatever the
		// terminal showed before a resize.
		if height <= 0 || len(lines) < height {
			f.buf.WriteString(ansi.CursorPosition(1, len(lines)+1))
			f.buf.WriteString(ansi.EraseScreenBelow)
		}
	}
	f.shown = lines
	if f.buf.Len() > 0 {
		_, _ = f.out.Write(f.buf.Bytes())
	}
}
