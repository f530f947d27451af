package ui

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/words"
)

// What the consent card's keys do: open the link in the browser, copy it,
// say done or decline. followup never fetches a link itself.

// openerMsg brings the command that opens links ("" when none is
// installed), looked up once after the first frame.
type openerMsg struct{ path string }

// linkOpenedMsg reports handing a link to the browser.
type linkOpenedMsg struct{ err error }

// linkCopiedMsg reports copying a link.
type linkCopiedMsg struct{ err error }

// findOpener looks for xdg-open.
func findOpener() tea.Cmd {
	return func() tea.Msg {
		p, _ := exec.LookPath("xdg-open")
		return openerMsg{p}
	}
}

// openerWait is how long an opener is given to fail before the link is
// taken as handed over (a browser it starts may run on for hours).
const openerWait = 3 * time.Second

// openLink starts opener on url, detached (its own session, no
// terminal), and reports its failure if it fails within openerWait.
func openLink(opener, url string) tea.Cmd {
	return func() tea.Msg {
		errFile, err := os.CreateTemp("", "followup-open-*")
		if err != nil {
			return linkOpenedMsg{err}
		}
		defer os.Remove(errFile.Name())
		defer errFile.Close()
		cmd := exec.Command(opener, url)
		cmd.Stderr = errFile // a file: a browser holding it open does not hold up Wait
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return linkOpenedMsg{err}
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }() // reaps it, however long it runs
		select {
		case err := <-exited:
			if err != nil {
				errFile.Seek(0, io.SeekStart)
				b, _ := io.ReadAll(io.LimitReader(errFile, 512))
				why := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
				if why != "" {
					err = fmt.Errorf("%v: %s", err, why)
				}
				return linkOpenedMsg{fmt.Errorf("%s: %w", opener, err)}
			}
		case <-time.After(openerWait):
		}
		return linkOpenedMsg{}
	}
}

// copyLink puts url on the clipboard of the terminal the screen runs in
// (OSC 52, which most terminals and tmux with set-clipboard take).
func copyLink(term io.Writer, url string) tea.Cmd {
	return func() tea.Msg {
		_, err := fmt.Fprintf(term, "\x1b]52;c;%s\a", base64.StdEncoding.EncodeToString([]byte(url)))
		return linkCopiedMsg{err}
	}
}

// decideLink says done (accept) or declines a URL question.
func decideLink(svc *chat.Service, r chat.RequestView, done bool) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		var rc chat.Receipt
		var err error
		if done {
			rc, err = svc.Answer(ctx, chat.AnswerInput{RequestID: r.ID, Digest: r.Digest, Values: forms.Values{}})
		} else {
			rc, err = svc.Cancel(ctx, r.ID, "")
		}
		return dialog.LinkDecided{RequestID: r.ID, RunID: rc.RunID, Server: words.AskedByName(r.Owner), Done: done, Err: err}
	}
}

// onLinkMessage handles the consent card's results; it reports whether
// msg was one.
func (m *model) onLinkMessage(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case openerMsg:
		m.mcp.opener = msg.path
	case linkOpenedMsg:
		if msg.err != nil {
			m.setStatus("Could not open the link: "+forms.SanitizeLine(msg.err.Error()), true)
		} else {
			m.setStatus("Handed the link to the browser; say done on the card once you have finished there.", false)
		}
	case linkCopiedMsg:
		if msg.err != nil {
			m.setStatus("Could not copy the link: "+forms.SanitizeLine(msg.err.Error()), true)
		} else {
			m.setStatus("Sent the link to the terminal's clipboard (OSC 52, if the terminal allows it); the card shows it in full too.", false)
		}
	case dialog.LinkDecided:
		told := m.tell(msg)
		if msg.Err != nil {
			m.setErr("", msg.Err)
			return tea.Batch(told, m.load(m.cur.chatID)), true
		}
		if msg.Done {
			m.setStatus("Told "+msg.Server+" you are done; the call goes on.", false)
		} else {
			m.setStatus("Declined: "+msg.Server+" is told no.", false)
		}
		m.dropForm()
		m.driving = true
		return tea.Batch(told, m.load(m.cur.chatID), driveRun(m.svc, msg.RunID)), true
	default:
		return nil, false
	}
	return nil, true
}

// doLink carries out the consent card's actions.
func (m *model) doLink(a dialog.Action) tea.Cmd {
	switch a := a.(type) {
	case dialog.OpenLink:
		if m.mcp.opener == "" {
			return nil
		}
		return openLink(m.mcp.opener, a.URL)
	case dialog.CopyLink:
		term := m.mcp.term
		if term == nil {
			term = os.Stdout
		}
		return copyLink(term, a.URL)
	case dialog.LinkDone:
		return decideLink(m.svc, a.Req, true)
	case dialog.LinkDecline:
		r, ok := m.activeRequest()
		if !ok || r.ID != a.RequestID {
			return nil
		}
		return decideLink(m.svc, r, false)
	}
	return nil
}

// urlArrives is the arrivals entry (question.go) of a URL question shown
// in the pane.
func urlArrives(m *model) (dialog.Dialog, bool) {
	r, ok := m.activeRequest()
	if !ok || r.Mode != "url" || m.archived() {
		return nil, false
	}
	return dialog.NewURL(m.keys.Keys, m.questionNow(), m.mcp.opener != ""), true
}
