package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// urlDialog is the consent card of an MCP server's URL elicitation (and
// of a -32042 URLElicitationRequired, docs/mcp.md): the full URL with its
// host on a line of its own and highlighted, warnings about the host,
// never fetched or opened by itself. The user may open it in the browser
// (xdg-open, when installed) or copy it, then says done (the server gets
// accept) or declines. It arrives by itself, so the focus rule applies,
// and closes with its question.
type urlDialog struct {
	keys    urlKeys
	scrollK scrollKeys
	q       question
	link    chat.LinkCheck
	canOpen bool // xdg-open is installed
	box     paneBox
	scroll  scroll
	// deciding: done or decline is on its way.
	deciding bool
}

// urlKeys act on the consent card.
type urlKeys struct{ Open, Copy, Done, Decline, Focus key.Binding }

// Actions of the consent card.
type (
	openLinkAct struct{ url string }
	copyLinkAct struct{ url string }
	// linkDoneAct says done (accept, with no content); linkDeclineAct
	// declines.
	linkDoneAct    struct{ req chat.RequestView }
	linkDeclineAct struct{ requestID string }
)

func (openLinkAct) isAction()    {}
func (copyLinkAct) isAction()    {}
func (linkDoneAct) isAction()    {}
func (linkDeclineAct) isAction() {}

func newURLCard(keys keyMap, q question, canOpen bool) urlDialog {
	return urlDialog{keys: keys.URL, scrollK: keys.Scroll, q: q, link: chat.CheckLink(q.req.URL), canOpen: canOpen}
}

func (d urlDialog) about() string    { return d.q.key }
func (d urlDialog) fullScreen() bool { return false }

// opens reports whether the open key applies.
func (d urlDialog) opens() bool { return d.canOpen && d.link.Openable }

func (d urlDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case questionMsg:
		if msg.key == d.q.key {
			d.q = question(msg)
		}
	case linkDecidedMsg:
		if msg.requestID == d.q.req.ID && msg.err != nil {
			d.deciding = false
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Open):
			if !d.opens() {
				return d, nil
			}
			return d, openLinkAct{d.q.req.URL}
		case key.Matches(msg, d.keys.Copy):
			if !d.link.Openable {
				return d, nil
			}
			return d, copyLinkAct{d.q.req.URL}
		case d.deciding && (key.Matches(msg, d.keys.Done) || key.Matches(msg, d.keys.Decline)):
			return d, nil
		case key.Matches(msg, d.keys.Done):
			d.deciding = true
			return d, linkDoneAct{d.q.req}
		case key.Matches(msg, d.keys.Decline):
			d.deciding = true
			return d, linkDeclineAct{d.q.req.ID}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d urlDialog) view(width, height int, focused bool) string {
	box := paneBox{width, height}
	bs := []key.Binding{}
	if d.opens() {
		bs = append(bs, style.Relabel(d.keys.Open, "open"))
	}
	if d.link.Openable {
		bs = append(bs, d.keys.Copy)
	}
	bs = append(bs, d.keys.Done, d.keys.Decline)
	hint := style.FocusHint(box.inner(), focused, d.keys.Focus, bs...)
	if d.deciding {
		hint = style.Dim.Render("sending…")
	}
	return box.draw(style.DialogFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}

// waiting is the line drawn above the form while the user types in it.
func (d urlDialog) waiting() string {
	return words.AskedByName(d.q.req.Owner) + " asks you to open a link — the card opens when you pause (" + d.keys.Focus.Help().Key + ")."
}

func (d urlDialog) body() string {
	r, l := d.q.req, d.link
	server := words.AskedByName(r.Owner)
	var b strings.Builder
	b.WriteString(style.Bold.Render(server+" (MCP server) asks you to open a link") + "\n")
	if reason := forms.PlainLine(r.Reason); reason != "" {
		b.WriteString(reason + "\n")
	}
	b.WriteString("\n" + highlightHost(forms.SanitizeLine(r.URL), l.Host) + "\n")
	if l.Host != "" {
		b.WriteString("host: " + style.LinkHost.Render(forms.SanitizeLine(l.Host)) + "\n")
	}
	for _, w := range l.Warnings {
		b.WriteString(style.Error.Render("⚠ "+forms.SanitizeLine(w)) + "\n")
	}
	if l.Problem != "" {
		b.WriteString(style.Error.Render("⚠ "+l.Problem+": followup will not open or copy it") + "\n")
	}
	note := "followup has not opened this link. Open it only if you trust " + server + " and this host; say done once you have finished there."
	if l.Openable && !d.canOpen {
		note += " (xdg-open is not installed: copy the link instead.)"
	}
	b.WriteString(style.Dim.Render(note))
	return b.String()
}

// highlightHost draws url with its host in the host style.
func highlightHost(url, host string) string {
	i := strings.Index(strings.ToLower(url), host)
	if host == "" || i < 0 {
		return url
	}
	return url[:i] + style.LinkHost.Render(url[i:i+len(host)]) + url[i+len(host):]
}

// urlArrives is the arrivals entry (question.go) of a URL question shown
// in the pane.
func urlArrives(m *model) (dialog, bool) {
	r, ok := m.activeRequest()
	if !ok || r.Mode != "url" || m.archived() {
		return nil, false
	}
	return newURLCard(m.keys, m.questionNow(), m.mcp.opener != ""), true
}

// linkCardWords is what the transcript card of a link to visit says of
// its state: the host, and done or declined rather than an answer.
func linkCardWords(r chat.RequestView, status string) string {
	if r.Mode != "url" {
		return status
	}
	host := chat.CheckLink(r.URL).Host
	switch r.State {
	case chat.RequestPending:
		return "waiting: open " + host + " and say done"
	case chat.RequestAnswered:
		return "you said done (" + host + ")"
	case chat.RequestCancelled:
		return "declined by you (" + host + ")"
	}
	return status
}
