package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"
)

// The CLI's side of followup as an MCP host (docs/mcp.md): deciding tool
// approvals, listing the configured servers, and what a command that
// drives a run says while an MCP server's question keeps it waiting.

var (
	flagNoWait = Flag{Name: "no-wait", Help: "if an MCP server asks a question during a tool call, give it up at once (it expires, the server is told cancel and the model is told the call was interrupted) instead of waiting for its answer from another shell"}
	flagAttach = Flag{Name: "attach", Value: "SERVER:URI", Repeat: true, Help: "attach an MCP server's resource to the message (repeatable): the agent reads its text, up to 64 KiB, or a binary one's type and size; followup mcp resources lists them"}
	flagMCP    = Flag{Name: "mcp-config", Value: "FILE", Help: "MCP servers, in Claude Code's .mcp.json shape (env FOLLOWUP_MCP_CONFIG; default $XDG_CONFIG_HOME/followup/mcp.json, else ~/.config/followup/mcp.json)"}
)

// drives names the commands that drive a run: they take --no-wait, and
// while one waits for a server's live question it says how to answer it.
var drives = map[string]bool{"ask": true, "mcp prompt": true, "answer": true, "cancel": true, "resume": true, "approve": true, "deny": true}

// mcpOptions loads the MCP configuration the command line names. A file
// named by --mcp-config or FOLLOWUP_MCP_CONFIG must be there and hold
// JSON; only the default one may be missing (no servers).
func mcpOptions(a Args) (chat.MCPOptions, error) {
	cfg := mcp.LoadFor(a.Flag("mcp-config"))
	if _, named := mcp.ConfigPath(a.Flag("mcp-config"), os.Getenv); named {
		for _, p := range cfg.Problems {
			if p.Pointer == "" {
				return chat.MCPOptions{}, &chat.Error{Code: chat.CodeInvalidArgument, Message: "cannot use the MCP configuration " + p.Error()}
			}
		}
	}
	// The roots: the directory followup was started in, then --root, then the config's.
	var roots []string
	if wd, err := os.Getwd(); err == nil {
		roots = append(roots, wd)
	}
	if v := a.Flag("root"); v != "" {
		for _, r := range strings.Split(v, "\x00") {
			abs, err := filepath.Abs(r)
			if st, serr := os.Stat(abs); err != nil || serr != nil || !st.IsDir() {
				return chat.MCPOptions{}, &chat.Error{Code: chat.CodeInvalidArgument, Message: "--root " + r + ": not a directory"}
			}
			roots = append(roots, abs)
		}
	}
	cfg.Roots = append(roots, cfg.Roots...)
	return chat.MCPOptions{Config: &cfg, Version: Version()}, nil
}

// reportMCPProblems prints each problem of the configuration in one line,
// for the commands that use the servers; followup goes on with the others.
func reportMCPProblems(a Args, o chat.Options, stderr io.Writer) {
	if o.MCP.Config == nil || !(drives[a.Command] || a.Command == "mcp list") || a.Has("json") && a.Command == "mcp list" {
		return
	}
	for _, p := range o.MCP.Config.Problems {
		fmt.Fprintf(stderr, "followup: %s\n", forms.SanitizeLine(p.Error()))
	}
}

// decideApproval is `followup approve APPROVAL_ID [--for-chat]` and
// `followup deny APPROVAL_ID`: it drives the run on after the decision and
// prints both, as answer does.
func decideApproval(ctx context.Context, c *Call) error {
	var d chat.ApprovalDecision
	var err error
	if c.Command == "approve" {
		d, err = c.Service.Approve(ctx, c.Arg(0), c.Has("for-chat"), c.Flag("command-id"))
	} else {
		d, err = c.Service.Deny(ctx, c.Arg(0), c.Flag("command-id"))
	}
	if err != nil {
		return err
	}
	run, elsewhere, err := c.Service.DriveOn(ctx, d.RunID)
	if err != nil {
		return withDetails(err, map[string]any{"receipt": d, "runId": d.RunID})
	}
	what := "denied"
	if d.Kind == "approve" {
		what = "allowed once"
		if d.Scope == "chat" {
			what = "allowed for this chat"
		}
	}
	head := fmt.Sprintf("%s %s\nrun %s  %s\n", d.ApprovalID, what, run.ID, run.State)
	if elsewhere { // a sampling request: the process that keeps the server's connection goes on
		head = fmt.Sprintf("%s %s\n%s\n", d.ApprovalID, what, drivenElsewhere(ctx, c.Service, chat.Receipt{}, run))
	}
	return drove(ctx, c, run, map[string]any{"receipt": d}, map[string]any{"receipt": d, "run": runOut(run)}, head, elsewhere)
}

// addWaiting adds what a run waits for: its requests, then its approvals.
func addWaiting(b *blocks, pend []chat.RequestView, aps []chat.ApprovalView) {
	for _, r := range pend {
		b.add(pendingText(r.RequestItem, r.Proposals))
	}
	for _, a := range aps {
		b.add(approvalText(a))
	}
}

// approvalText is a pending approval and the commands that decide it.
func approvalText(a chat.ApprovalView) string {
	var sb strings.Builder
	what := "wants to call " + forms.SanitizeLine(a.Tool)
	if a.Sampling != nil {
		what = "wants to use followup's model, during " + forms.SanitizeLine(a.Tool) + " (sampling)"
	}
	fmt.Fprintf(&sb, "approval %s  %s %s\n", a.ID, forms.SanitizeLine(a.Server), what)
	if a.Owner != nil {
		fmt.Fprintf(&sb, "  %s\n", forms.SanitizeLine(ownerText(*a.Owner)))
	}
	if v := a.Sampling; v != nil {
		fmt.Fprintf(&sb, "  model %s, a reply of at most %d tokens (the server asks up to %d)\n", forms.SanitizeLine(v.Model), v.Cap, v.MaxTokens)
		if v.SystemPrompt != "" {
			fmt.Fprintf(&sb, "  system: %s\n", forms.SanitizeLine(v.SystemPrompt))
		}
		for _, m := range v.Messages {
			fmt.Fprintf(&sb, "  %s: %s\n", forms.SanitizeLine(m.Role), forms.SanitizeLine(m.Text))
		}
	} else {
		if a.Title != "" && a.Title != a.Tool {
			fmt.Fprintf(&sb, "  %s\n", forms.PlainLine(a.Title))
		}
		fmt.Fprintf(&sb, "  arguments: %s\n", forms.SanitizeLine(string(a.Arguments)))
		fmt.Fprintf(&sb, "  hints: %s\n", forms.SanitizeLine(a.Annotations.Words()))
	}
	fmt.Fprintf(&sb, "  decide with: followup approve %s [--for-chat] | followup deny %s\n", a.ID, a.ID)
	return sb.String()
}

// mcpList is `followup mcp list`: every configured server's state,
// protocol and tools, after the servers have finished connecting.
func mcpList(ctx context.Context, c *Call) error {
	s := c.Service
	if err := s.WaitMCP(ctx); err != nil {
		return err
	}
	st := s.MCPStatus()
	c.OK(st, func(w io.Writer) {
		if st.Config != "" {
			fmt.Fprintf(w, "config %s\n", st.Config)
		}
		if len(st.Servers) == 0 && len(st.Problems) > 0 {
			fmt.Fprintln(w, "no MCP server is usable: fix the problems of that file (on standard error)")
		} else if len(st.Servers) == 0 {
			fmt.Fprintln(w, `no MCP servers configured: list them in that file, in Claude Code's .mcp.json shape, e.g.`)
			fmt.Fprintln(w, `  {"mcpServers": {"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}}`)
		}
		for _, srv := range st.Servers {
			fmt.Fprintln(w, forms.SanitizeLine(serverLine(srv)))
			if len(srv.Tools) > 0 {
				names := make([]string, len(srv.Tools))
				for i, t := range srv.Tools {
					names[i] = t.Tool
					if t.AutoApproved {
						names[i] += " (auto-approved)"
					}
					if t.NotOffered != "" {
						names[i] += " (not offered: " + t.NotOffered + ")"
					}
				}
				fmt.Fprintln(w, forms.SanitizeLine(fmt.Sprintf("  tools (%d): %s", len(names), strings.Join(names, ", "))))
			}
		}
	})
	return nil
}

// attachments reads --attach SERVER:URI values.
func attachments(v string) ([]mcp.Resource, error) {
	var out []mcp.Resource
	for _, a := range strings.Split(v, "\x00") {
		if a == "" {
			continue
		}
		server, uri, ok := strings.Cut(a, ":")
		if !ok || server == "" || uri == "" {
			return nil, usagef("--attach %q: write SERVER:URI, e.g. everything:demo://resource/static/document/features.md", a)
		}
		out = append(out, mcp.Resource{Server: server, URI: uri})
	}
	return out, nil
}

// mcpResources is `followup mcp resources [SERVER]`: the resources the
// connected servers list, after they have finished connecting.
func mcpResources(ctx context.Context, c *Call) error {
	s := c.Service
	if err := s.WaitMCP(ctx); err != nil {
		return err
	}
	out := []mcp.Resource{}
	for _, srv := range s.MCPStatus().Servers {
		if c.Arg(0) == "" || c.Arg(0) == srv.Name {
			out = append(out, srv.Resources...)
		}
	}
	c.OK(map[string]any{"resources": out}, func(w io.Writer) {
		if len(out) == 0 {
			fmt.Fprintln(w, "no resources: no connected MCP server lists any (followup mcp list shows the servers)")
		}
		for _, r := range out {
			fmt.Fprintln(w, forms.SanitizeLine(fmt.Sprintf("%s:%s  %s  %s", r.Server, r.URI, r.Name, r.MIMEType)))
		}
	})
	return nil
}

// mcpPrompts is `followup mcp prompts`: each connected server's prompts,
// with their arguments (a * marks a required one).
func mcpPrompts(ctx context.Context, c *Call) error {
	s := c.Service
	if err := s.WaitMCP(ctx); err != nil {
		return err
	}
	prompts := s.MCPPrompts()
	c.OK(map[string]any{"prompts": append([]mcp.Prompt{}, prompts...)}, func(w io.Writer) {
		if len(prompts) == 0 {
			fmt.Fprintln(w, "no connected MCP server offers prompts (`followup mcp list` says how each is)")
		}
		for _, p := range prompts {
			line := p.Command()
			for _, a := range p.Arguments {
				line += " " + a.Name
				if a.Required {
					line += "*"
				}
			}
			if p.Description != "" {
				line += "  — " + p.Description
			}
			fmt.Fprintln(w, forms.SanitizeLine(line))
		}
	})
	return nil
}

// mcpPrompt is `followup mcp prompt PROMPT [--arg NAME=VALUE]...`:
// the prompt's messages are sent as a message, and its run driven as ask does.
func mcpPrompt(ctx context.Context, c *Call) error {
	if err := c.Service.WaitMCP(ctx); err != nil {
		return err
	}
	args := map[string]string{}
	if v := c.Flag("arg"); v != "" {
		for _, kv := range strings.Split(v, "\x00") {
			name, value, ok := strings.Cut(kv, "=")
			if !ok {
				return &chat.Error{Code: chat.CodeInvalidArgument, Message: "--arg " + kv + ": give it as NAME=VALUE"}
			}
			args[name] = value
		}
	}
	sent, err := c.Service.SendPrompt(ctx, c.Flag("chat"), c.Arg(0), args, c.Flag("command-id"))
	if err != nil {
		return err
	}
	return driveSent(ctx, c, sent)
}

func serverLine(srv mcp.ServerStatus) string {
	state := srv.State
	if srv.Reason != "" {
		state += ": " + srv.Reason
	}
	line := fmt.Sprintf("%s  %s  %s %s", srv.Name, state, srv.Type, srv.Target)
	if srv.Protocol != "" {
		line += "  protocol " + srv.Protocol
	}
	return line
}

// sayWhileWaiting tells the user, once per question, about a question an
// MCP server asks during a tool call: how to answer it while this command
// keeps the server's connection and waits, or, with --no-wait (noWait),
// that it was given up at once; and writes the servers' progress on the
// calls (progress.go). It ends with ctx.
func sayWhileWaiting(ctx context.Context, s *chat.Service, stderr io.Writer, noWait bool) {
	said := map[string]bool{}
	progress := newProgressOut(stderr)
	defer progress.endLine()
	for ev := range s.Subscribe(ctx) {
		progress.event(ctx, s, ev)
		if ev.Kind == chat.EvApproval && !said[ev.ApprovalID] && !noWait {
			// A server's sampling request waits for a decision like a
			// question (a tool's approval ends the drive instead).
			if a, err := s.Approval(ctx, ev.ApprovalID); err == nil && a.Sampling != nil && a.State == "pending" {
				said[a.ID] = true
				progress.endLine()
				fmt.Fprintln(stderr, forms.SanitizeLine(fmt.Sprintf("followup: %s asks to use followup's model during %s; waiting for your decision on %s, keeping the server's connection. From another shell: followup approve %s [--for-chat] or followup deny %s (followup pending shows the request). Ctrl+C gives it up.",
					a.Server, a.Tool, a.ID, a.ID, a.ID)))
			}
			continue
		}
		if ev.Kind != chat.EvRequest || ev.RequestID == "" || said[ev.RequestID] {
			continue
		}
		r, err := s.Request(ctx, ev.RequestID)
		// A live question, or a link of -32042 (this process keeps the
		// connection the call is made again on, unless --no-wait).
		waits := r.Live || r.Mode == mcp.ModeURL && !noWait
		if err != nil || !waits || (!noWait && !r.State.Open()) {
			continue
		}
		said[r.ID] = true
		line := liveHint(r.RequestItem)
		if noWait {
			line = givenUpHint(r.RequestItem)
		}
		progress.endLine()
		fmt.Fprintln(stderr, forms.SanitizeLine(line))
	}
}

// asks names who asks what, for the hints: "everything asks during echo".
func asks(r chat.RequestItem) string {
	during := ""
	if r.Tool != "" {
		during = " during " + r.Tool
	}
	return ownerText(r.Owner)[len("asked by "):] + " asks" + during
}

func liveHint(r chat.RequestItem) string {
	answer := fmt.Sprintf("followup answer %s --values-json '{…}'", r.ID)
	if r.Mode == mcp.ModeURL {
		answer = fmt.Sprintf("open %s, then followup answer %s --values-json '{}'", r.URL, r.ID)
	}
	return fmt.Sprintf("followup: %s; waiting for the answer to %s, keeping the server's connection. From another shell: %s (followup pending shows the fields), or followup cancel %s to decline. Ctrl+C gives the question up.",
		asks(r), r.ID, answer, r.ID)
}

// givenUpHint says what --no-wait did with a server's live question.
func givenUpHint(r chat.RequestItem) string {
	return fmt.Sprintf("followup: %s; with --no-wait the question %s was given up at once: it expired, the server was told cancel and the model was told the call was interrupted.",
		asks(r), r.ID)
}

// whileDriving prepares the context of a command that drives a run
// (--no-wait) and says what happens to a server's live question while it
// drives, until stop.
func whileDriving(ctx context.Context, a Args, env Env) (_ context.Context, stop func()) {
	noWait := a.Has("no-wait")
	if noWait {
		ctx = chat.WithoutWaiting(ctx)
	}
	sctx, cancel := context.WithCancel(ctx)
	go sayWhileWaiting(sctx, env.Service, env.Stderr, noWait)
	return ctx, cancel
}

// urlText is the part of a URL request's text that says where it leads
// and how to say done or decline: followup never opens the link itself.
func urlText(r chat.RequestItem) string {
	if !r.State.Open() {
		return fmt.Sprintf("  link: %s\n", forms.SanitizeLine(r.URL))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  open this link yourself if you trust it: %s\n", forms.SanitizeLine(r.URL))
	link := chat.CheckLink(r.URL)
	if link.Host != "" {
		fmt.Fprintf(&b, "  host: %s\n", forms.SanitizeLine(link.Host))
	}
	for _, w := range link.Warnings {
		fmt.Fprintf(&b, "  careful: %s\n", forms.SanitizeLine(w))
	}
	if link.Problem != "" {
		fmt.Fprintf(&b, "  careful: %s\n", forms.SanitizeLine(link.Problem))
	}
	fmt.Fprintf(&b, "  then say done: followup answer %s --values-json '{}'   or decline: followup cancel %s\n", r.ID, r.ID)
	return b.String()
}

// deliveryLine is one delivery of show: to the agent, or what the MCP
// server that asked received.
func deliveryLine(d chat.DeliveryView, o chat.Owner) string {
	line := fmt.Sprintf("delivery %d: %s %s (attempts %d)", d.ID, d.Kind, d.State, d.Attempts)
	if d.Target == "mcp_server" {
		line = fmt.Sprintf("delivery %d: %s to %s (MCP server): %s", d.ID, d.Kind, o.Name, d.Action)
		if d.Content != nil {
			line += " " + compact(d.Content)
		}
		line += fmt.Sprintf(", %s (attempts %d)", d.State, d.Attempts)
	}
	if d.LastError != "" {
		line += " — " + d.LastError
	}
	return line
}
