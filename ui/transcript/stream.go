package transcript

import (
	"strings"
	"time"

	"followup/chat"
	"followup/forms"
)

// The screen draws at Bubble Tea's default rate, 60 frames a second at
// most, and only when the view changed: a key's echo, the first frame
// with the form, wait for the next frame (at 30 they waited 17 ms more,
// docs/performance.md).

// frameEvery is how often streamed text reaches the screen: 30 redraws a
// second move it smoothly, and bound what a streaming reply costs.
const frameEvery = time.Second / 30

// FrameMsg draws the text streamed since the last frame.
type FrameMsg struct{}

// stream is the reply of the model call streaming in the chat on screen.
//
// Drawing it costs the same per delta however long the reply grows: the
// lines it has finished are sanitised, styled and wrapped once, and only
// the open line is drawn again; deltas only append, and the screen draws
// them once per frame (frameEvery), however many arrive in between.
//
// Its text stays on screen until the stored reply takes its place: a
// Reset (the call ended, or starts again) keeps it until a snapshot shows
// the reply or the run's end, or a new call's first delta replaces it.
// Once a snapshot shows the reply, the deltas of that call still on their
// way are not drawn, so no copy of the reply's tail appears under it.
type stream struct {
	runID string
	raw   strings.Builder
	// startSeq is the load last begun when the stream began: only loads
	// begun after it can know the call ended.
	startSeq int
	// after is the newest message of the run on screen when the stream
	// began; the call's reply will be newer.
	after int64
	// closed: a Reset came when loads up to closedSeq had begun.
	closed    bool
	closedSeq int
	// recorded: a snapshot shows the call ended; what it still streams is
	// not drawn until its Reset.
	recorded bool

	dirty   bool // text came since it was last drawn
	pending bool // a streamFrameMsg is on its way

	// The drawing, at width: lines holds a blank line, the header, the
	// lines of raw[:done] (drawn once), then the open part's lines.
	width int
	done  int
	lines []string
	fixed int // lines drawn from raw[:done], blank and header included
}

// clear forgets the stream (a frame already on its way still comes).
func (s *stream) clear() {
	pending := s.pending
	*s = stream{pending: pending}
}

// text is what the call streamed so far.
func (s *stream) text() string { return s.raw.String() }

// shown reports whether the stream draws anything.
func (s *stream) shown() bool { return s.raw.Len() > 0 && !s.recorded }

// draw returns the stream's lines at width: a blank line, the header, the
// reply. The slice is reused: it is valid until the next call.
func (s *stream) draw(width int) []string {
	width = max(width, 10)
	if s.width != width || s.lines == nil {
		s.width, s.done = width, 0
		s.lines = append(s.lines[:0], "", agentHeader())
		s.fixed = len(s.lines)
	}
	raw := s.raw.String()
	for {
		end := s.lineEnd(raw)
		if end < 0 {
			break
		}
		s.lines = append(s.lines[:s.fixed], splitLines(agentBody(raw[s.done:end-1], width))...)
		s.fixed, s.done = len(s.lines), end
	}
	s.lines = append(s.lines[:s.fixed], splitLines(agentBody(raw[s.done:], width))...)
	return s.lines
}

// lineEnd is where the first lines of raw[s.done:] that can be drawn
// once, whatever follows, end (-1: none yet). Usually that is the first
// line break; an escape sequence running past it holds the lines after it
// with it, up to a few.
func (s *stream) lineEnd(raw string) int {
	from := s.done
	for range 8 {
		nl := strings.IndexByte(raw[from:], '\n')
		if nl < 0 {
			return -1
		}
		from += nl + 1
		if lineEnds(raw[s.done:from]) {
			return from
		}
	}
	return -1
}

// lineEnds reports whether text, which ends with a line break, is drawn
// the same whatever follows it: sanitising it keeps its last line break
// (no escape sequence swallows it) and adds nothing before it.
func lineEnds(text string) bool {
	return forms.SanitizeBlock(text) == forms.SanitizeBlock(text[:len(text)-1])+"\n"
}

func splitLines(s string) []string { return strings.Split(s, "\n") }

// storedIn reports whether msgs already hold the stream's text: a reply
// of its run, newer than the stream's start, that begins with it. A load
// begun before the stream proves nothing to settleStream, yet it may read
// the reply once stored and reach the screen before the stream's end:
// drawing both would show the reply twice. A reply that only begins alike
// stops hiding the stream at the first delta that differs.
func (s *stream) storedIn(msgs []chat.Message) bool {
	text := s.text()
	for i := len(msgs) - 1; i >= 0 && msgs[i].ID > s.after; i-- {
		if msg := &msgs[i]; msg.RunID == s.runID && msg.Role == "assistant" && strings.HasPrefix(msg.Content, text) {
			return true
		}
	}
	return false
}

// newestOfRun is the id of the newest message of runID in msgs (0: none).
func newestOfRun(msgs []chat.Message, runID string) int64 {
	var id int64
	for _, msg := range msgs {
		if msg.RunID == runID {
			id = max(id, msg.ID)
		}
	}
	return id
}
