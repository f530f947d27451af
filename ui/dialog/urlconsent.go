package dialog

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// URL is the consent card of an MCP server's URL elicitation (and
// of a -32042 URLElicitationRequired, docs/mcp.md): the full URL with its
// host on a line of its own and highlighted, warnings about the host,
// never fetched or opened by itself. The user may open it in the browser
// (xdg-open, when installed) or copy it, then says done (the server gets
// accept) or declines. It arrives by itself, so the focus rule applies,
// and closes with its question.
type URL struct {
	keys URLKeys
	card
	q       Question
	link    chat.LinkCheck
	canOpen bool // xdg-open is installed
}

func NewURL(keys Keys, q Question, canOpen bool) URL {
	return URL{keys: keys.URL, card: newCard(keys, q.Key), q: q, link: chat.CheckLink(q.Req.URL), canOpen: canOpen}
}

// opens reports whether the open key applies.
func (d URL) opens() bool { return d.canOpen && d.link.Openable }

func (d URL) Update(msg tea.Msg) (Dialog, Action) {
	switch msg := msg.(type) {
	case Question:
		if msg.Key == d.q.Key {
			d.q = msg
		}
	case Decided:
		if msg.ID == d.q.Req.ID && msg.Err != nil {
			d.deciding = false
		}
	}
	var open, copy Action
	if d.opens() {
		open = OpenLink{d.q.Req.URL}
	}
	if d.link.Openable {
		copy = CopyLink{d.q.Req.URL}
	}
	a, _ := d.update(msg, d.body, choice{d.keys.Open, open}, choice{d.keys.Copy, copy},
		choice{d.keys.Done, LinkDone{d.q.Req}}, choice{d.keys.Decline, LinkDecline{d.q.Req.ID}})
	return d, a
}

func (d URL) View(width, height int, focused bool) string {
	bs := []key.Binding{}
	if d.opens() {
		bs = append(bs, style.Relabel(d.keys.Open, "open"))
	}
	if d.link.Openable {
		bs = append(bs, d.keys.Copy)
	}
	bs = append(bs, d.keys.Done, d.keys.Decline)
	hint := d.hint(width, focused, bs...)
	if d.deciding {
		hint = style.Dim.Render("sending…")
	}
	return d.frame(width, height, focused, d.body(), hint)
}

// Waiting is the line drawn above the form while the user types in it.
func (d URL) Waiting() string {
	return words.AskedByName(d.q.Req.Owner) + " asks you to open a link — the card opens when you pause (" + d.focusK.Help().Key + ")."
}

func (d URL) body() string {
	r, l := d.q.Req, d.link
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
