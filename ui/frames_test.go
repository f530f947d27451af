package ui

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// screenOut is a terminal's output as frames write it.
type screenOut struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (s *screenOut) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.buf.Write(p)
}

// take returns what was written since the last take, and how many writes.
func (s *screenOut) take() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, n := s.buf.String(), s.writes
	s.buf.Reset()
	s.writes = 0
	return out, n
}

// waitFor waits until the output holds text; it returns all of it.
func (s *screenOut) waitFor(t *testing.T, text string) string {
	t.Helper()
	return s.waitWithin(t, text, 5*time.Second)
}

// waitWithin is waitFor for at most d.
func (s *screenOut) waitWithin(t *testing.T, text string, d time.Duration) string {
	t.Helper()
	var got strings.Builder
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		out, _ := s.take()
		got.WriteString(out)
		if strings.Contains(got.String(), text) {
			return got.String()
		}
	}
	t.Fatalf("the terminal never got %q; it got %q", text, got.String())
	return ""
}

// A view is drawn at once, and a frame rewrites only the lines that
// changed, each where it belongs.
func TestFramesRewriteOnlyChangedLines(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Millisecond, 20, 5)
	f.start()
	f.write("title\nfirst\nsecond")
	first := out.waitFor(t, "second")
	for _, line := range []string{"title", "first", "second"} {
		if !strings.Contains(first, line) {
			t.Fatalf("the first frame %q lacks %q", first, line)
		}
	}
	f.write("title\nfirst!\nsecond")
	got := out.waitFor(t, "first!")
	if strings.Contains(got, "title") || strings.Contains(got, "second") {
		t.Fatalf("a one-line change rewrote unchanged lines: %q", got)
	}
	if !strings.HasPrefix(got, ansi.CursorPosition(1, 2)) {
		t.Fatalf("the changed line was not written at row 2: %q", got)
	}
	f.stop()
}

// The same view again is no frame: an idle screen writes nothing.
func TestFramesWriteNothingForTheSameView(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Millisecond, 20, 5)
	f.start()
	f.write("a\nb")
	out.waitFor(t, "b")
	for range 10 {
		f.write("a\nb")
	}
	f.stop()
	if got, n := out.take(); n != 0 {
		t.Fatalf("the same view wrote %d times: %q", n, got)
	}
}

// Views that come faster than the interval make one frame, the newest,
// when it ends; none is lost when the screen stops.
func TestFramesCoalesceViewsWithinTheInterval(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Hour, 20, 5) // the rest after the first frame never ends
	f.start()
	f.write("v1")
	out.waitFor(t, "v1")
	f.write("v2")
	f.write("v3")
	time.Sleep(20 * time.Millisecond)
	if got, n := out.take(); n != 0 {
		t.Fatalf("a view was drawn during the rest: %q", got)
	}
	f.stop()
	got, n := out.take()
	if n != 1 || !strings.Contains(got, "v3") || strings.Contains(got, "v2") {
		t.Fatalf("stop wrote %d frames %q, want one with the newest view", n, got)
	}
}

// After a resize every line is rewritten, truncated to the new width, and
// what lay below the frame is erased.
func TestFramesRepaintAfterAResize(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Millisecond, 20, 5)
	f.start()
	f.write("one\ntwo\nthree")
	out.waitFor(t, "three")
	f.resize(3, 4)
	f.write("one\ntwo\nthree")
	got := out.waitFor(t, ansi.EraseScreenBelow)
	f.stop()
	for _, want := range []string{"one", "two", "thr"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the repaint %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "three") {
		t.Fatalf("a line was not truncated to the width of 3: %q", got)
	}
}

// A view taller than the terminal keeps its bottom lines, where the
// composer is.
func TestFramesKeepTheBottomOfATallView(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Millisecond, 20, 2)
	f.start()
	f.write("top\nmiddle\nbottom")
	got := out.waitFor(t, "bottom")
	f.stop()
	if strings.Contains(got, "top") || !strings.Contains(got, ansi.CursorPosition(1, 1)+"middle") {
		t.Fatalf("a 3-line view on 2 rows drew %q, want its last two lines from row 1", got)
	}
}

// The first frame waits for the view worth drawing first: the line shown
// while the chat loads is never drawn when the chat comes within the
// interval, and the chat is drawn as soon as it comes.
func TestFramesHoldTheFirstFrameUntilReady(t *testing.T) {
	out := &screenOut{}
	f := newFrames(out, time.Hour, 20, 5)
	f.holdFirst()
	f.start()
	f.write("loading")
	time.Sleep(20 * time.Millisecond)
	if got, n := out.take(); n != 0 {
		t.Fatalf("the loading line was drawn before the interval: %q", got)
	}
	f.write("the chat")
	f.ready()
	got := out.waitFor(t, "the chat")
	f.stop()
	if strings.Contains(got, "loading") {
		t.Fatalf("the loading line was drawn: %q", got)
	}
}

// When the first view worth drawing comes late, what stood meanwhile is
// drawn after one interval, and the late view at once, with no rest
// between them.
func TestFramesDrawALateFirstViewAtOnce(t *testing.T) {
	out := &screenOut{}
	const every = 2 * time.Second
	f := newFrames(out, every, 20, 5)
	f.holdFirst()
	f.start()
	f.write("loading")
	out.waitWithin(t, "loading", 2*every)
	f.write("the chat")
	f.ready()
	out.waitWithin(t, "the chat", every/2) // a rest would hold it for every
	f.stop()
}
