//go:build benchhooks

package ui

import (
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// benchHooks: in a build with -tags benchhooks (bench/ builds followup so),
// FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1 makes the screen quit right after its
// first frame. A build without the tag reads no such variable.
func benchHooks(root *model) tea.Model {
	if os.Getenv("FOLLOWUP_EXIT_AFTER_FIRST_FRAME") != "1" {
		return root
	}
	return firstFrame{model: root, at: os.Getenv("FOLLOWUP_FIRST_FRAME_AT"), logged: new(bool)}
}

// firstFrame quits right after the first complete frame is drawn — the
// chat with its form loaded — so bench/run.sh can time start to first
// frame (FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1). The work that would follow
// that frame (cursor blink, drawing older transcript entries, counting
// questions elsewhere) is not started: the floor quits the same way. With
// FOLLOWUP_FIRST_FRAME_AT=FILE it appends to FILE the wall-clock time, in
// nanoseconds, at which that frame was drawn.
type firstFrame struct {
	*model
	at     string
	logged *bool
}

func (f firstFrame) complete() bool { return f.firstFrameReady() }

// firstFrameReady reports whether the screen shows what its first frame is
// for: the first chat read, with its active form built if a question waits.
func (m *model) firstFrameReady() bool {
	return m.loaded && (len(m.pane.pending) == 0 || m.pane.live != nil)
}

// Update implements tea.Model.
func (f firstFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.model.Update(msg)
	if f.complete() {
		// Bubble Tea draws the last view on the way out.
		return f, tea.Quit
	}
	return f, cmd
}

// View implements tea.Model.
func (f firstFrame) View() string {
	v := f.model.View()
	if f.complete() && f.at != "" && !*f.logged {
		*f.logged = true
		logTime(f.at)
	}
	return v
}

// logTime appends the time now, in Unix nanoseconds, to a file.
func logTime(path string) {
	if fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintln(fh, time.Now().UnixNano())
		fh.Close()
	}
}
