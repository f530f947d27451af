package ui

import (
	"cmp"
	"context"
	"errors"
	"io"
	"maps"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/style"
	"followup/ui/transcript"
)

// The screen as an MCP host (docs/mcp.md): what it knows of the open chat's
// tool calls and approvals, and of the configured servers. Approvals and
// steps come with every chat snapshot; the servers' status is read when
// the host says it changed (EvMCP).

// mcpState is the screen's MCP side.
type mcpState struct {
	// approvals are the open chat's pending approvals, oldest first.
	approvals []chat.ApprovalView
	// steps are the tool calls the transcript's rows name, by stepID.
	steps map[string]chat.ToolStepView
	// unfolded: tool rows show arguments and results in full.
	unfolded bool
	// progress is the latest progress a server sent on the open chat's
	// running calls, by stepID: kept only here, drawn on the spinner's
	// next frame.
	progress map[string]string

	status mcp.Status
	// started: the servers were started, after the first frame.
	started bool
	// problemsTold: the configuration's problems were said once on the
	// notice line.
	problemsTold bool

	// opener opens links in the browser (xdg-open), "" when none is
	// installed; term is where OSC 52 reaches the terminal (nil: stdout).
	opener string
	term   io.Writer
}

// readSteps reads the tool calls whose rows are among msgs (one page of
// the transcript, so it costs the same however long the chat is).
func readSteps(ctx context.Context, svc *chat.Service, msgs []chat.Message) map[string]chat.ToolStepView {
	steps := map[string]chat.ToolStepView{}
	for _, msg := range msgs {
		if msg.Role != chat.RoleToolStep {
			continue
		}
		if v, err := svc.ToolStep(ctx, msg.RunID, msg.ToolCallID); err == nil {
			steps[transcript.StepID(v.RunID, v.ToolCallID)] = v
		}
	}
	return steps
}

// adopt takes a snapshot's MCP side.
func (s *mcpState) adopt(approvals []chat.ApprovalView, steps map[string]chat.ToolStepView) {
	s.approvals, s.steps = approvals, steps
	for id := range s.progress {
		if s.steps[id].State != "started" {
			delete(s.progress, id) // the call ended: its row says how
		}
	}
}

// setProgress keeps a server's latest progress on a call.
func (s *mcpState) setProgress(id, p string) {
	s.progress[id] = p
}

// addSteps takes the tool calls of an older page.
func (s *mcpState) addSteps(steps map[string]chat.ToolStepView) {
	merged := make(map[string]chat.ToolStepView, len(s.steps)+len(steps))
	maps.Copy(merged, steps)
	maps.Copy(merged, s.steps)
	s.steps = merged
}

// startMCPMsg starts the servers: it comes a frame after the first one.
type startMCPMsg struct{}

// mcpStartDelay is how long after the first chat arrives the servers
// start: one frame interval (frameEvery) and a little more, so the first
// frame is on the terminal before any server process competes for the
// cores (docs/performance.md).
const mcpStartDelay = 50 * time.Millisecond

// readMCPStatus reads the servers' status, after starting the servers
// restart names again (they are starting; EvMCP brings how it went).
func readMCPStatus(svc *chat.Service, restart ...string) tea.Cmd {
	return func() tea.Msg {
		var errs []error
		for _, name := range restart {
			errs = append(errs, svc.RestartMCP(name))
		}
		return dialog.ServerStatus{Status: svc.MCPStatus(), Err: errors.Join(errs...)}
	}
}

func (msg startMCPMsg) apply(m *model) tea.Cmd {
	if m.mcp.started || m.svc == nil {
		return nil
	}
	m.mcp.started = true
	// The servers start in the background; their status says they are
	// connecting, or the configuration's problems.
	svc := m.svc
	return func() tea.Msg { svc.StartMCP(); return readMCPStatus(svc)() }
}

// onServerStatus takes the servers' status, and says what changed.
func (m *model) onServerStatus(msg dialog.ServerStatus) tea.Cmd {
	if msg.Err != nil {
		m.setErr("", msg.Err)
	}
	prev := m.mcp.status
	m.mcp.status = msg.Status
	m.composer.SetCommands(promptCommands(msg.Status))
	m.tellProblemsOnce()
	m.tellStopped(prev)
	return m.tell(msg)
}

// tellProblemsOnce says the configuration's problems on the notice line,
// once, when the servers start.
func (m *model) tellProblemsOnce() {
	ps := m.mcp.status.Problems
	if m.mcp.problemsTold || len(ps) == 0 {
		return
	}
	m.mcp.problemsTold = true
	line := ps[0]
	if len(ps) > 1 {
		line = style.Plural(len(ps), "problem", "problems") + ": " + line // the count before what a narrow line cuts
	}
	m.setStatus(line+" — "+m.keys.Servers.Help().Key+" lists the servers", true)
}

// tellStopped says on the notice line that a server connected in prev
// stopped by itself, what comes of it, and where its reason is.
func (m *model) tellStopped(prev mcp.Status) {
	was := map[string]bool{}
	for _, s := range prev.Servers {
		was[s.Name] = s.State == mcp.StateConnected
	}
	for _, s := range m.mcp.status.Servers {
		if s.RestartsOnCall && was[s.Name] {
			// The reason is in the servers list: the line stays short
			// enough for its key to show.
			m.setStatus(forms.SanitizeLine(s.Name)+" stopped — the next call of its tools starts it again ("+
				m.keys.Servers.Help().Key+": servers)", true)
			return
		}
	}
}

// approvalArrives is the arrivals entry (question.go) of the open chat's
// oldest pending approval.
func approvalArrives(m *model) (dialog.Dialog, bool) {
	if len(m.mcp.approvals) == 0 || m.archived() || m.cur.newChat {
		return nil, false
	}
	a := m.mcp.approvals[0]
	if a.ChatID != m.cur.chatID {
		return nil, false
	}
	return dialog.NewApproval(m.keys.Keys, a), true
}

// decideApproval allows or denies a tool call or a sampling request: the
// run goes on (an allowed call is made, a denied one is told to the model).
func (m *model) decideApproval(id string, forChat, deny bool) tea.Cmd {
	svc, said := m.svc, m.approvalDecided(id, forChat, deny)
	return func() tea.Msg {
		ctx := context.Background()
		var d chat.ApprovalDecision
		var err error
		if deny {
			d, err = svc.Deny(ctx, id, "")
		} else {
			d, err = svc.Approve(ctx, id, forChat, "")
		}
		return doneMsg{runID: d.RunID, err: err, status: said, decided: id}
	}
}

// approvalDecided is the notice once the approval id is decided.
func (m *model) approvalDecided(id string, forChat, deny bool) string {
	what, then := "the tool call", []string{"the agent is told and goes on", "it runs without asking here from now on", "the call is made"}
	for _, a := range m.mcp.approvals {
		if a.ID != id {
			continue
		}
		what = forms.SanitizeLine(a.Server) + " · " + forms.SanitizeLine(a.Tool)
		if a.Sampling != nil {
			what = forms.SanitizeLine(a.Server) + "'s use of followup's model"
			then = []string{"the server is told and the task goes on", "its requests go to the model without asking here from now on", "the model answers it"}
		}
	}
	switch {
	case deny:
		return "Denied " + what + " — " + then[0] + "."
	case forChat:
		return "Allowed " + what + " for this chat — " + then[1] + "."
	}
	return "Allowed " + what + " once — " + then[2] + "."
}

// resourceLinks are the resource links of the open chat's tool results,
// oldest call first: f2 lists them to be attached.
func (m *model) resourceLinks() []mcp.Resource {
	steps := slices.SortedFunc(maps.Values(m.mcp.steps), func(a, b chat.ToolStepView) int { return a.StartedAt.Compare(b.StartedAt) })
	var out []mcp.Resource
	for _, v := range steps {
		for _, l := range v.Links {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// doMCP carries out the MCP dialogs' actions.
func (m *model) doMCP(a dialog.Action) tea.Cmd {
	switch a := a.(type) {
	case dialog.Approve:
		return m.decideApproval(a.ID, a.ForChat, false)
	case dialog.Deny:
		return m.decideApproval(a.ID, false, true)
	case dialog.RestartServers:
		return readMCPStatus(m.svc, a.Names...)
	case dialog.Attach:
		m.closeTop()
		m.composer.Attach(a.Resource)
		m.setStatus("Attached "+forms.SanitizeLine(cmp.Or(a.Resource.Title, a.Resource.Name, a.Resource.URI))+": it goes with your next message.", false)
		return nil
	}
	return m.doLink(a)
}
