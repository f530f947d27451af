package dialog

import (
	"cmp"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// Servers lists the configured MCP servers (docs/mcp.md): each one's
// state — starting, connected with its protocol, failed with the
// reason, disabled — its tools with what the server says of them, and
// its log; above them, the configuration's problems (file, pointer,
// reason). It takes the whole screen, scrolls, and follows the servers
// while it is open; r starts the failed ones again. Under each server
// are its resources, and at the end those the chat's tool results link
// to: ↑/↓ picks one, enter attaches it to the next message.
type Servers struct {
	keys          Keys
	status        mcp.Status
	links         []mcp.Resource // the chat's tool results' resource links
	pick          int            // the resource picked, among items
	width, height int
	scroll        scroll
	// drawn is the list as last drawn for one status (a new status starts
	// a new one), by width and pick: hundreds of resources are not drawn
	// again per frame.
	drawn *style.Memo[[2]int, serverLines]
}

// serverLines is the list's lines and the line of each of its items.
type serverLines struct {
	out []string
	at  []int
}

func NewServers(keys Keys, status mcp.Status, links []mcp.Resource) Servers {
	return Servers{keys: keys, status: status, links: links, drawn: &style.Memo[[2]int, serverLines]{}}
}

// items are the resources that may be attached, in the order drawn.
func (d Servers) items() []mcp.Resource {
	var out []mcp.Resource
	for _, s := range d.status.Servers {
		if s.State == mcp.StateConnected {
			out = append(out, s.Resources...)
		}
	}
	return append(out, d.links...)
}

func (d Servers) About() string    { return "" }
func (d Servers) FullScreen() bool { return true }

func (d Servers) Update(msg tea.Msg) (Dialog, Action) {
	switch msg := msg.(type) {
	case Size:
		d.width, d.height = msg.Width, msg.Height
	case ServerStatus:
		d.status = msg.Status
		d.drawn = &style.Memo[[2]int, serverLines]{}
	case tea.KeyMsg:
		if key.Matches(msg, d.keys.ServersClose) {
			return d, Close{}
		}
		if items := d.items(); len(items) > 0 {
			d.pick = min(d.pick, len(items)-1)
			switch {
			case key.Matches(msg, d.keys.ServersAttach):
				return d, Attach{items[d.pick]}
			case key.Matches(msg, d.keys.Scroll.Up, d.keys.Scroll.Down):
				if key.Matches(msg, d.keys.Scroll.Up) {
					d.pick = max(0, d.pick-1)
				} else {
					d.pick = min(len(items)-1, d.pick+1)
				}
				lines, at := d.lines(d.width)
				rows := shown(len(lines), d.avail())
				d.scroll.top = clampTop(min(at[d.pick], max(d.scroll.top, at[d.pick]-rows+1)), len(lines), rows)
				return d, nil
			}
		}
		if key.Matches(msg, d.keys.ServersRestart) {
			if names := d.failed(); len(names) > 0 {
				return d, RestartServers{names}
			}
			return d, nil
		}
		lines, _ := d.lines(d.width)
		d.scroll.move(msg, d.keys.Scroll, len(lines), d.avail())
	}
	return d, nil
}

// avail is how many lines fit above the footer.
func (d Servers) avail() int { return max(1, d.height-1) }

func (d Servers) View(width, height int, focused bool) string {
	all, _ := d.lines(width)
	lines := d.scroll.window(all, max(1, height-1), d.keys.Scroll)
	var keys []key.Binding
	if len(d.items()) > 0 {
		keys = append(keys, d.keys.ServersPick, d.keys.ServersAttach)
	}
	if len(d.failed()) > 0 {
		keys = append(keys, d.keys.ServersRestart)
	}
	keys = append(keys, d.keys.ServersClose)
	return strings.Join(append(lines, " "+style.Dim.Render(style.HintsFit(max(1, width-1), keys...))), "\n")
}

// failed names the failed servers, which r starts again.
func (d Servers) failed() []string {
	var names []string
	for _, s := range d.status.Servers {
		if s.State == mcp.StateFailed {
			names = append(names, s.Name)
		}
	}
	return names
}

// lines is the list drawn at width, each line cut to fit; at is the line
// of each of items. It is drawn again only when the status, the width or
// the pick changed.
func (d Servers) lines(width int) ([]string, []int) {
	l := d.drawn.Get([2]int{width, d.pick}, func() serverLines { out, at := d.draw(width); return serverLines{out, at} })
	return l.out, l.at
}

func (d Servers) draw(width int) (out []string, at []int) {
	st := d.status
	w := max(10, width-1)
	add := func(indent int, s string) {
		out = append(out, " "+strings.Repeat(" ", indent)+style.Truncate(s, max(1, w-indent)))
	}
	// item adds a resource that may be attached, marked when picked.
	item := func(r mcp.Resource) {
		mark := "  "
		if len(at) == d.pick {
			mark = style.Waiting.Render("▸ ")
		}
		at = append(at, len(out))
		line := style.Bold.Render(forms.SanitizeLine(cmp.Or(r.Title, r.Name, r.URI))) + " " + style.Dim.Render(forms.SanitizeLine(r.URI))
		if r.MIMEType != "" {
			line += style.Dim.Render("  [" + forms.SanitizeLine(r.MIMEType) + "]")
		}
		add(2, mark+line)
	}
	// wrap adds s in full, its continuation lines indented two more.
	wrap := func(indent int, s string) {
		out = append(out, strings.Split(words.HangingIndent(s, indent+1, w+1), "\n")...)
	}
	title := "MCP servers"
	if st.Config != "" {
		title += " — " + forms.SanitizeLine(homeShort(st.Config))
	}
	add(0, style.Bold.Render(title))
	out = append(out, "")
	if len(st.Problems) > 0 {
		add(0, style.Error.Render(style.Plural(len(st.Problems), "problem in the configuration", "problems in the configuration")+" (the other servers start anyway):"))
		for _, p := range st.Problems {
			wrap(2, style.Error.Render("✗ "+forms.SanitizeLine(p)))
		}
		out = append(out, "")
	}
	if len(st.Servers) == 0 {
		if len(st.Problems) > 0 {
			add(0, "No MCP server is usable: fix the problems above.")
		} else {
			add(0, "No MCP server is configured.")
		}
		add(0, style.Dim.Render("followup reads --mcp-config FILE, else $FOLLOWUP_MCP_CONFIG, else ~/.config/followup/mcp.json"))
		add(0, style.Dim.Render("(the shape of Claude Code's .mcp.json; see docs/mcp.md)."))
		return out, at
	}
	for i, s := range st.Servers {
		if i > 0 {
			out = append(out, "")
		}
		wrap(0, style.Bold.Render(forms.SanitizeLine(s.Name))+"  "+serverState(s))
		target := forms.SanitizeLine(s.Target)
		if s.ServerName != "" {
			target += "  " + style.Dim.Render("("+forms.SanitizeLine(strings.TrimSpace(s.ServerName+" "+s.ServerVersion))+")")
		}
		add(2, style.Dim.Render(s.Type+": ")+target)
		if s.State == mcp.StateConnected {
			add(2, style.Plural(len(s.Tools), "tool:", "tools:"))
			for _, t := range s.Tools {
				line := style.Bold.Render(forms.SanitizeLine(t.Tool))
				if desc := forms.PlainLine(cmp.Or(t.Title, t.Description)); desc != "" {
					line += " — " + desc
				}
				if words := toolWords(t); words != "" {
					line += "  " + style.Dim.Render("["+words+"]")
				}
				add(4, line)
			}
			if len(s.Resources) > 0 {
				add(2, style.Plural(len(s.Resources), "resource:", "resources:"))
			}
			for _, r := range s.Resources {
				item(r)
			}
		}
		if s.RestartsOnCall {
			wrap(2, style.Dim.Render("its tools stay offered: the next call of one starts it again"))
		}
		if s.Log != "" && s.State != mcp.StateDisabled {
			add(2, style.Dim.Render("log: "+forms.SanitizeLine(homeShort(s.Log))))
			for _, l := range s.LogTail {
				add(4, style.Dim.Render(forms.SanitizeLine(l)))
			}
		}
	}
	if len(d.links) > 0 {
		out = append(out, "")
		add(0, style.Bold.Render("Linked by this chat's tool results"))
		for _, r := range d.links {
			item(r)
		}
	}
	return out, at
}

// serverState says a server's state, with its protocol or the reason.
func serverState(s mcp.ServerStatus) string {
	switch s.State {
	case mcp.StateConnected:
		return style.Good.Render("connected") + style.Dim.Render(" · protocol "+forms.SanitizeLine(s.Protocol))
	case mcp.StateFailed:
		return style.Error.Render("failed: " + forms.SanitizeLine(s.Reason))
	case mcp.StateConnecting:
		if s.Reason != "" { // still starting past its timeout
			return style.Waiting.Render("starting… " + forms.SanitizeLine(s.Reason))
		}
		return style.Waiting.Render("starting…")
	case mcp.StateDisabled:
		return style.Dim.Render("disabled in the configuration")
	case "":
		return style.Dim.Render("not started yet")
	}
	return forms.SanitizeLine(s.State)
}

// toolWords says what a tool's server says of it, and whether it runs
// without asking.
func toolWords(t mcp.Tool) string {
	ws := []string{t.Annotations.Words()}
	if t.NotOffered != "" {
		ws = append(ws, "not offered: "+t.NotOffered)
	}
	if t.AutoApproved {
		ws = append(ws, "runs without asking")
	}
	return strings.Join(ws, ", ")
}

// homeShort writes a path under the home directory with ~.
func homeShort(path string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(path, home+string(os.PathSeparator)) {
		return "~" + path[len(home):]
	}
	return path
}
