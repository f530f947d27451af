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

// linkHandedMsg reports opening ("open") or copying ("copy") a link.
type linkHandedMsg struct {
	verb string
	err  error
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
			return linkHandedMsg{"open", err}
		}
		defer os.Remove(errFile.Name())
		defer errFile.Close()
		cmd := exec.Command(opener, url)
		cmd.Stderr = errFile // a file: a browser holding it open does not hold up Wait
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return linkHandedMsg{"open", err}
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
				return linkHandedMsg{"open", fmt.Errorf("%s: %w", opener, err)}
			}
		case <-time.After(openerWait):
		}
		return linkHandedMsg{verb: "open"}
	}
}

// copyLink puts url on the clipboard of the terminal the screen runs in
// (OSC 52, which most terminals and tmux with set-clipboard take).
func copyLink(term io.Writer, url string) tea.Cmd {
	return func() tea.Msg {
		_, err := fmt.Fprintf(term, "\x1b]52;c;%s\a", base64.StdEncoding.EncodeToString([]byte(url)))
		return linkHandedMsg{"copy", err}
	}
}

// decideLink says done (accept) or declines a URL question.
func decideLink(svc *chat.Service, r chat.RequestView, done bool) tea.Cmd {
	server := words.AskedByName(r.Owner)
	return func() tea.Msg {
		ctx := context.Background()
		if !done {
			rc, err := svc.Cancel(ctx, r.ID, "")
			return doneMsg{runID: rc.RunID, err: err, status: "Declined: " + server + " is told no.", drop: true, decided: r.ID}
		}
		rc, err := svc.Answer(ctx, chat.AnswerInput{RequestID: r.ID, Digest: r.Digest, Values: forms.Values{}})
		return doneMsg{runID: rc.RunID, err: err, status: "Told " + server + " you are done; the call goes on.", drop: true, decided: r.ID}
	}
}

func (msg linkHandedMsg) apply(m *model) tea.Cmd {
	switch {
	case msg.err != nil:
		m.setStatus("Could not "+msg.verb+" the link: "+forms.SanitizeLine(msg.err.Error()), true)
	case msg.verb == "copy":
		m.setStatus("Sent the link to the terminal's clipboard (OSC 52, if the terminal allows it); the card shows it in full too.", false)
	default:
		m.setStatus("Handed the link to the browser; say done on the card once you have finished there.", false)
	}
	return nil
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
		r, ok := m.pane.activeRequest()
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
	r, ok := m.pane.activeRequest()
	if !ok || r.Mode != "url" || m.archived() {
		return nil, false
	}
	return dialog.NewURL(m.keys.Keys, m.questionNow(), m.mcp.opener != ""), true
}
