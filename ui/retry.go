package ui

import (
	"context"
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/style"
)

// ctrl+r moves on what is stuck (docs/behaviour.md): the runs interrupted by a
// crash that no process drives — those the notice line counts, in any
// chat — and the open chat's newest run when it failed, retried from its
// recorded history. The host says which (Service.Retryable); the status
// line says what ctrl+r did, or why there was nothing to do.

// retryMsg brings what ctrl+r may move on.
type retryMsg struct {
	runs []chat.RunView
	err  error
}

// resumeRun resumes an interrupted run or retries a failed one, driving it
// to its next wait or end.
func resumeRun(svc *chat.Service, runID string) tea.Cmd {
	return func() tea.Msg {
		v, err := svc.Resume(context.Background(), runID)
		return driveDoneMsg{runID, v, err}
	}
}

// retry asks the host what ctrl+r may move on now.
func (m *model) retry() tea.Cmd {
	svc, chatID := m.svc, m.cur.sendTo()
	return func() tea.Msg {
		runs, err := svc.Retryable(context.Background(), chatID)
		return retryMsg{runs, err}
	}
}

// A retryMsg resumes or retries what the host offered, and says so.
func (msg retryMsg) apply(m *model) tea.Cmd {
	if msg.err != nil {
		m.setErr("", msg.err)
		return nil
	}
	if len(msg.runs) == 0 {
		m.setStatus(m.nothingToRetry(), false)
		return nil
	}
	failed := 0
	m.retrying.runs = map[string]bool{}
	var cmds []tea.Cmd
	for _, r := range msg.runs {
		if r.State == chat.RunFailed {
			failed++
		}
		m.retrying.runs[r.ID] = true
		cmds = append(cmds, resumeRun(m.svc, r.ID))
	}
	m.cur.orphans = nil
	m.driving = true
	m.retrying.failed, m.retrying.interrupted = failed, len(msg.runs)-failed
	m.retrying.says = retryingText(failed, len(msg.runs)-failed)
	m.setStatus(m.retrying.says, false)
	return tea.Batch(cmds...)
}

// retrying is the runs ctrl+r is resuming or retrying, the notice that
// says so, and how many failed and interrupted runs the last ctrl+r moved on.
type retrying struct {
	runs                map[string]bool
	says                string
	failed, interrupted int
}

// resumed follows one run ctrl+r moved on reaching its next wait or end:
// once the last has, the status line says what was done (an error says
// itself).
func (m *model) resumed(msg driveDoneMsg) {
	delete(m.retrying.runs, msg.runID)
	if len(m.retrying.runs) > 0 || msg.err != nil {
		return
	}
	if t := m.notice.Text(); t != "" && t != m.retrying.says {
		return // something newer holds the line
	}
	var did string
	switch r := m.retrying; {
	case r.failed > 0 && r.interrupted > 0:
		did = "Retried the failed run and resumed " + style.Plural(r.interrupted, "interrupted run", "interrupted runs") + "."
	case r.failed > 0:
		did = "Retried the failed run"
		if msg.run.ID != "" {
			did += "; the task " + msg.run.State.Words()
		}
		did += "."
	default:
		did = "Resumed " + style.Plural(r.interrupted, "interrupted run", "interrupted runs") + "."
	}
	m.setStatus(did, false)
}

// retryingText says what ctrl+r is doing.
func retryingText(failed, interrupted int) string {
	resuming := ""
	switch {
	case interrupted == 1:
		resuming = "resuming the interrupted run"
	case interrupted > 1:
		resuming = fmt.Sprintf("resuming %d interrupted runs", interrupted)
	}
	switch {
	case failed > 0 && resuming != "":
		return "Retrying the failed run and " + resuming + "…"
	case failed > 0:
		return "Retrying the failed run from where it stopped…"
	}
	return "R" + resuming[1:] + "…"
}

// nothingToRetry says why ctrl+r had nothing to move on in the open chat.
func (m *model) nothingToRetry() string {
	switch {
	case m.archived():
		return "This chat is archived: " + m.unarchiveHint() + " before its run can be retried."
	case m.cur.run != nil && m.cur.run.State == chat.RunFailed:
		return "The failed run is being driven by another process; it is not retried here."
	case m.cur.run != nil && m.cur.run.State.Active():
		return "Nothing to resume: the task " + m.cur.run.State.Words() + "."
	}
	return "Nothing to resume or retry in this chat."
}

// sameRuns reports whether a and b list the same runs in the same states.
func sameRuns(a, b []chat.RunView) bool {
	return slices.EqualFunc(a, b, func(x, y chat.RunView) bool { return x.ID == y.ID && x.State == y.State })
}
