package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"followup/forms"
	"followup/store"
)

// ChatView is a chat in a list.
type ChatView struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	State     ChatState `json:"state"`
	UpdatedAt time.Time `json:"updatedAt"` // UTC, RFC 3339 in JSON like every time
	Pending   int       `json:"pending"`   // open requests
	// Serve is set for the chat of an MCP client's serve session (Screen
	// and Inspect read it).
	Serve *ServeInfo `json:"serve,omitempty"`
}

// LatestChatID is the chat the screen opens on: the most recently updated
// active one (an archived one only when there is no other), or "".
func (s *Service) LatestChatID(ctx context.Context) (string, error) {
	return s.store.LatestChatID(ctx, s.reader())
}

// OpeningChat is the chat a screen opens on: the one whose composer text
// or form the user saved after every chat last changed, so what a user
// left typing is where they come back (docs/behaviour.md: drafts are back
// after a quit or a crash), "" for text typed in a new chat; else the
// newest chat (as LatestChatID). typed says which of the two a "" is: the
// text, or no chat at all when it was read.
func (s *Service) OpeningChat(ctx context.Context) (id string, typed bool, err error) {
	id, found, err := s.store.TypedChat(ctx, s.reader())
	if err != nil || found {
		return id, found && id == "", err
	}
	id, err = s.LatestChatID(ctx)
	return id, false, err
}

// PendingElsewhere counts the open requests of every chat but chatID.
func (s *Service) PendingElsewhere(ctx context.Context, chatID string) (int, error) {
	if err := s.expireDue(ctx); err != nil {
		return 0, err
	}
	return s.store.CountPendingOutside(ctx, s.reader(), chatID)
}

// PendingOutside is what a screen shows of the questions waiting in other
// active chats: at most limit of the oldest, then the newest (for a key
// that goes to the last), oldest first — bounded by limit, whatever waits
// elsewhere. Each item is a head: who asks what, where (its id, chat, run,
// state, title, owner, mode, times), read from the request's row alone,
// without its fields and values, which a tab never shows.
func (s *Service) PendingOutside(ctx context.Context, chatID string, limit int) ([]RequestItem, error) {
	var out []RequestItem
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		oldest, err := s.store.PendingOutside(ctx, tx, chatID, limit, false)
		if err != nil {
			return err
		}
		newest, err := s.store.PendingOutside(ctx, tx, chatID, 1, true)
		if err != nil {
			return err
		}
		if len(newest) == 1 && len(oldest) == limit && oldest[len(oldest)-1].ID != newest[0].ID {
			oldest = append(oldest, newest[0])
		}
		out = make([]RequestItem, len(oldest))
		for i, r := range oldest {
			it := buildItem(r, revisionData{def: forms.Definition{Title: r.Title}})
			out[i] = RequestItem{ID: it.ID, Digest: it.Digest, ChatID: it.ChatID, RunID: it.RunID, State: it.State,
				Revision: it.Revision, Title: it.Title, Owner: it.Owner, Mode: it.Mode, ExpiresAt: it.ExpiresAt,
				CreatedAt: it.CreatedAt}
		}
		return nil
	})
	return out, err
}

// Chat reads one chat, with its open requests counted as the chat list
// counts them.
func (s *Service) Chat(ctx context.Context, id string) (ChatView, error) {
	if err := s.expireDue(ctx); err != nil {
		return ChatView{}, err
	}
	var v ChatView
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		c, err := s.store.GetChat(ctx, tx, id)
		if err != nil {
			return notFound(err, "chat", id)
		}
		pending, err := s.store.PendingCounts(ctx, tx, []string{c.ID})
		v = chatViewOf(c, pending)
		return err
	})
	return v, err
}

// chatViewOf is c as views show it, pending holding the open requests of
// the chats that have any. An archived chat counts none: its questions are
// left out of pending until it is active again.
func chatViewOf(c store.Chat, pending map[string]int) ChatView {
	v := ChatView{ID: c.ID, Title: c.Title, State: ChatState(c.State), UpdatedAt: msTime(c.UpdatedAt)}
	if c.State == store.ChatActive {
		v.Pending = pending[c.ID]
	}
	return v
}

// Capabilities is input_capabilities: the static contract plus templates.
func (s *Service) Capabilities(ctx context.Context) (map[string]any, error) {
	ts, err := s.store.Templates(ctx, s.reader())
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, t := range ts {
		if t.State == store.TemplateActive {
			names = append(names, t.Name)
		}
	}
	return map[string]any{"capabilities": forms.Capabilities(), "templates": names,
		"policy": map[string]any{"questionsPerRun": s.policy.QuestionsPerRun, "replySize": s.policy.ReplySize,
			"modelCallsPerRun": s.policy.ModelCalls}}, nil
}

// InspectView is a chat or a run with everything that belongs to it.
type InspectView struct {
	Chat       *ChatView      `json:"chat,omitempty"`
	Run        *RunView       `json:"run,omitempty"`
	Messages   []Message      `json:"messages"`
	Requests   []RequestView  `json:"requests"`
	Deliveries []DeliveryView `json:"deliveries"`
	// Children are the run's sub-agents, each with its own (docs/behaviour.md).
	Children []ChildView `json:"children,omitempty"`
}

// Inspect shows a chat (ch_…) or a run (run_…).
func (s *Service) Inspect(ctx context.Context, id string) (InspectView, error) {
	if err := s.expireDue(ctx); err != nil {
		return InspectView{}, err
	}
	rd := s.reader()
	v := InspectView{Messages: []Message{}, Requests: []RequestView{}, Deliveries: []DeliveryView{}}
	var ms []store.Message
	var filter store.RequestFilter
	var row store.Chat
	if run, err := s.store.GetRun(ctx, rd, id); err == nil {
		rv := runView(run)
		v.Run = &rv
		if ms, err = s.store.RunMessages(ctx, rd, id); err != nil {
			return v, err
		}
		filter.RunID = id
	} else if c, err := s.store.GetChat(ctx, rd, id); err == nil {
		cv := chatViewOf(c, nil) // Pending is counted from its requests below
		v.Chat, row = &cv, c
		if v.Chat.Serve, err = s.serveInfo(ctx, rd, id); err != nil {
			return v, err
		}
		if run, err := s.store.LatestRun(ctx, rd, id); err == nil {
			rv := runView(run)
			v.Run = &rv
		}
		if ms, err = s.store.ChatMessages(ctx, rd, id); err != nil {
			return v, err
		}
		filter.ChatID = id
	} else {
		return v, errorf(CodeNotFound, "no chat or run with id %q", id)
	}
	for _, m := range ms {
		if m.Visible {
			v.Messages = append(v.Messages, messageView(m))
		}
	}
	if err := s.subAgentRows(ctx, rd, v.Messages); err != nil {
		return v, err
	}
	reqs, err := s.listRequests(ctx, filter)
	if err != nil {
		return v, err
	}
	v.Requests = reqs
	open := 0
	for _, r := range reqs {
		v.Deliveries = append(v.Deliveries, r.Deliveries...)
		if r.State == store.ReqPending {
			open++
		}
	}
	if v.Chat != nil {
		v.Chat.Pending = chatViewOf(row, map[string]int{row.ID: open}).Pending
	}
	if v.Run != nil {
		v.Children, err = s.Children(ctx, v.Run.ID)
	}
	return v, err
}

// UnreadWarning says, before chatID is deleted, which of its confirmed
// answers the agent that asked has not read yet — deleting the chat
// throws them away — how many, and in words ("" when there is none).
func (s *Service) UnreadWarning(ctx context.Context, chatID string) (int, string, error) {
	rs, err := s.store.UnreadAnswers(ctx, s.reader(), chatID)
	if err != nil || len(rs) == 0 {
		return 0, "", err
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.ID
		if r.Title != "" {
			names[i] = fmt.Sprintf("“%s” (%s)", forms.SanitizeLine(r.Title), r.ID)
		}
	}
	if len(rs) == 1 {
		return 1, "the answer confirmed to " + names[0] + " has not been read by its agent yet", nil
	}
	return len(rs), fmt.Sprintf("%d confirmed answers have not been read by their agents yet: %s", len(rs), strings.Join(names, ", ")), nil
}

// Delete removes a chat and everything that belongs to it: messages, runs,
// requests, revisions, drafts, answers, proposals, deliveries and receipts.
// Its own receipt keeps only a hash of the id, so no row names the chat.
func (s *Service) Delete(ctx context.Context, chatID, commandID string) error {
	_, err := s.command(ctx, commandID, "delete", nil, map[string]any{"chatId": chatID}, func(tx *txn) (any, error) {
		if run, err := s.store.LatestRun(ctx, tx, chatID); err == nil {
			tx.onCommit(func() { s.cancelDrive(run.ID) })
		}
		tx.emit(Event{Kind: EvChat, ChatID: chatID})
		return map[string]any{"deleted": true}, notFound(s.store.DeleteChat(ctx, tx, chatID), "chat", chatID)
	})
	return err
}

// Revisions lists a request's revisions.
func (s *Service) Revisions(ctx context.Context, requestID string) ([]map[string]any, error) {
	rs, err := s.store.Revisions(ctx, s.reader(), requestID)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, r := range rs {
		rd, err := decodeRevision(r)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"revision": r.Revision, "digest": r.Digest, "definition": rd.def,
			"prefill": rd.prefill, "supplied": rd.supplied})
	}
	return out, nil
}
