package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"followup/forms"
	"followup/store"
)

// Owner is who asks a request (docs/behaviour.md): followup's own agent run, an
// MCP server's elicitation (by its config name), or an external agent
// through `followup mcp serve` (by the clientInfo name it sent, which may
// be empty). Every request has one; the form shows it ("asked by Claude
// Code"), and pending, show and inspect carry it.
//
// A sub-agent's request is its own agent's too: Kind agent with the
// sub-agent's Name, its RunID and ParentRunID, and Path, the names from
// the task's first sub-agent down to it ("research/venue"). An MCP
// server's question during a sub-agent's call keeps Kind mcp_server and
// the server's Name, with the sub-agent's RunID, ParentRunID and Path.
type Owner struct {
	Kind        string `json:"kind"`
	Name        string `json:"name,omitempty"`
	RunID       string `json:"runId,omitempty"`
	ParentRunID string `json:"parentRunId,omitempty"`
	Path        string `json:"path,omitempty"`
}

// Owner kinds.
const (
	OwnerAgent     = store.OwnerAgent
	OwnerMCPServer = store.OwnerMCPServer
	OwnerMCPClient = store.OwnerMCPClient
)

// ownerOf reads a request's owner.
func ownerOf(r store.Request) Owner {
	if r.OwnerKind == "" {
		return Owner{Kind: OwnerAgent}
	}
	o := Owner{Kind: r.OwnerKind, Name: r.OwnerName}
	if r.OwnerParent == "" {
		return o
	}
	o.RunID, o.ParentRunID, o.Path = r.RunID.String, r.OwnerParent, r.OwnerName
	if o.Kind == OwnerMCPServer {
		// The server's name is its own column; the sub-agent's path is
		// kept with the question's context (mcpContext.Agent).
		var mc mcpContext
		json.Unmarshal([]byte(r.Context.String), &mc)
		o.Path = mc.Agent
	} else {
		o.Name = r.OwnerName[strings.LastIndex(r.OwnerName, "/")+1:]
	}
	return o
}

// ownerPath is what a request stores as its owner's name: a sub-agent's
// path, or the server that asks.
func ownerPath(o Owner) string {
	if o.Path != "" && o.Kind == OwnerAgent {
		return o.Path
	}
	return o.Name
}

// SubAgent reports a request a sub-agent of the task asks.
func (o Owner) SubAgent() bool { return o.Kind == OwnerAgent && o.ParentRunID != "" }

// ForSubAgent reports an MCP server's question asked during a sub-agent's call.
func (o Owner) ForSubAgent() bool { return o.Kind == OwnerMCPServer && o.ParentRunID != "" }

// runOwner is who asks for run: its agent, or the sub-agent it is.
func (s *Service) runOwner(ctx context.Context, tx store.Handle, run store.Run) (Owner, error) {
	if run.ParentRunID == "" {
		return Owner{Kind: OwnerAgent}, nil
	}
	chain, err := s.ancestors(ctx, tx, run)
	var names []string
	for i := len(chain) - 2; i >= 0; i-- {
		names = append(names, chain[i].Name)
	}
	return Owner{Kind: OwnerAgent, Name: run.Name, RunID: run.ID, ParentRunID: run.ParentRunID, Path: strings.Join(names, "/")}, err
}

// maxOwnerName bounds, in characters, a client's or server's name: a name
// another program chose (docs/input-requests.md strings).
const maxOwnerName = 128

// ServeInfo describes the serve session a chat belongs to: such a chat has
// no followup agent behind it. Its composer says so and takes no messages
// (Send refuses them); cancel still works there.
type ServeInfo struct {
	// Client is the clientInfo name of the agent that asks ("" when it
	// sent none).
	Client string `json:"client"`
	// Connected is false once the session has ended — its client left or
	// its server died: its open questions expired (disconnected).
	Connected bool `json:"connected"`
	// Quiet is set while questions wait and its client has made no call
	// for a while (Options.ServeQuietAfter): it may be gone.
	Quiet bool `json:"clientMayBeGone,omitempty"`
}

// serveInfo is the serve session of a chat, nil for a chat of followup's
// own agent. An open session whose server has died reads as gone at once,
// before anything has expired its requests.
func (s *Service) serveInfo(ctx context.Context, h store.Handle, chatID string) (*ServeInfo, error) {
	sess, err := s.store.ChatSession(ctx, h, chatID)
	if err == store.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	info := &ServeInfo{Client: sess.ClientName, Connected: sess.State == store.SessionOpen}
	if info.Connected {
		if held, err := s.db.SessionLeaseHeld(sess.Seq); err == nil && !held {
			info.Connected = false
		}
	}
	if info.Connected {
		n, err := s.store.CountSessionPending(ctx, h, sess.ID)
		info.Quiet = err == nil && s.quiet(sess, n > 0)
	}
	return info, nil
}

// refuseServeChat refuses a message to a serve chat: the agent that asks
// there reads only answers.
func (s *Service) refuseServeChat(ctx context.Context, h store.Handle, chatID string) error {
	info, err := s.serveInfo(ctx, h, chatID)
	if err != nil || info == nil {
		return err
	}
	return errorf(CodeInvalidArgument, "this chat holds the questions of %s (followup mcp serve): it takes answers, not messages",
		cmp.Or(info.Client, "an MCP client"))
}

// unsent is the draft of r's current revision, what the user had typed
// when its asker went away (nil when there is none).
func (s *Service) unsent(ctx context.Context, h store.Handle, r store.Request) (forms.Values, error) {
	d, err := s.store.GetDraft(ctx, h, r.ID, r.Revision)
	if err == store.ErrNotFound {
		return nil, nil
	}
	if vals := decodeValues(d.Values); err == nil && len(vals) > 0 {
		return vals, nil
	}
	return nil, err
}
