package chat

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"followup/agent/mcp"
	"followup/store"
)

// MaxMessage is the longest chat message accepted, in bytes.
const MaxMessage = 64 << 10

// Sent is the receipt of a chat message.
type Sent struct {
	ChatID    string `json:"chatId"`
	RunID     string `json:"runId"`
	MessageID int64  `json:"messageId"`
	CommandID string `json:"commandId"`
	NewRun    bool   `json:"newRun"`
}

func (r *Sent) setCommandID(id string) { r.CommandID = id }

// Send records a user message. With no chatID it starts a new chat. A
// message sent while the chat's run waits for input joins that run (the
// agent reads it; it never fills or approves anything by itself); after a
// run ended, the message starts a new one. Driving the run is separate.
// Resources attached are read now (attach.go).
func (s *Service) Send(ctx context.Context, chatID, text, commandID string, attach ...mcp.Resource) (Sent, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "" && len(attach) == 0:
		return Sent{}, errorf(CodeInvalidArgument, "the message is empty")
	case !utf8.ValidString(text):
		return Sent{}, errorf(CodeInvalidArgument, "the message is not valid UTF-8")
	case len(text) > MaxMessage:
		return Sent{}, errorf(CodeLimitExceeded, "the message is %d bytes; the limit is %d", len(text), MaxMessage)
	}
	lines, attached, err := s.readAttachments(ctx, attach)
	if err != nil {
		return Sent{}, err
	}
	args := map[string]any{"chatId": chatID, "text": text}
	if len(attach) > 0 {
		args["attach"] = attach
	}
	owner := chatID
	return commandAs(s, ctx, commandID, "send", &owner, args, func(tx *txn) (*Sent, error) {
		now := s.nowMS()
		res := &Sent{ChatID: chatID}
		if chatID == "" {
			res.ChatID = NewID("ch")
			owner = res.ChatID
			tx.emit(Event{Kind: EvChat, ChatID: res.ChatID})
			if err := s.store.InsertChat(ctx, tx, store.Chat{ID: res.ChatID, Title: chatTitle(text + lines), State: store.ChatActive,
				CreatedAt: now, UpdatedAt: now}); err != nil {
				return nil, err
			}
		} else if err := s.requireActive(ctx, tx, chatID); err != nil {
			return nil, err
		} else if err := s.refuseServeChat(ctx, tx, chatID); err != nil {
			return nil, err
		}
		run, err := s.store.LatestRun(ctx, tx, res.ChatID)
		switch {
		case err == nil && !store.RunEnded(run.State):
			if err := s.wake(ctx, tx, run); err != nil {
				return nil, err
			}
		case err == nil || err == store.ErrNotFound:
			run, err = s.store.InsertRun(ctx, tx, store.Run{ID: NewID("run"), ChatID: res.ChatID, State: store.RunRunning,
				Provider: s.provider.Name(), Model: s.model, CreatedAt: now, UpdatedAt: now})
			if err != nil {
				return nil, err
			}
			res.NewRun = true
		default:
			return nil, err
		}
		res.RunID = run.ID
		tx.emit(Event{Kind: EvMessage, ChatID: res.ChatID, RunID: run.ID}, Event{Kind: EvRun, ChatID: res.ChatID, RunID: run.ID})
		id, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: res.ChatID, RunID: nullString(run.ID), Role: store.RoleUser,
			Content: strings.TrimSpace(text + "\n" + lines), Visible: true, ForModel: true, CreatedAt: now})
		if err != nil {
			return nil, err
		}
		res.MessageID = id
		for _, a := range attached {
			if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: res.ChatID, RunID: nullString(run.ID), Role: store.RoleUser,
				Content: a, ForModel: true, CreatedAt: now}); err != nil {
				return nil, err
			}
		}
		if err := s.clearSentDraft(ctx, tx, chatID, text); err != nil {
			return nil, err
		}
		return res, s.store.TouchChat(ctx, tx, res.ChatID, now)
	})
}

// chatTitle is a new chat's title: the first line of its first message.
func chatTitle(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return clip(line, 48)
}

// Message is a transcript entry.
type Message struct {
	ID        int64  `json:"id"`
	RunID     string `json:"runId,omitempty"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	RequestID string `json:"requestId,omitempty"`
	// ToolCallID names the MCP tool call of a tool_step row (ToolSteps).
	ToolCallID string    `json:"toolCallId,omitempty"`
	CreatedAt  time.Time `json:"createdAt"` // UTC
	// Name and State are a sub-agent row's (RoleSubAgent).
	Name  string   `json:"name,omitempty"`
	State RunState `json:"state,omitempty"`
}

func messageView(m store.Message) Message {
	v := Message{ID: m.ID, RunID: m.RunID.String, Role: m.Role, Content: m.Content, RequestID: m.RequestID.String, CreatedAt: msTime(m.CreatedAt)}
	if m.Role == RoleToolStep {
		v.ToolCallID = m.ToolCallID
	}
	return v
}
