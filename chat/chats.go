package chat

import (
	"context"
	"strconv"
	"strings"

	"followup/store"
)

// The chat list pages through every chat, most recently updated first;
// each page reads only the chats it shows and their open requests, so a
// page costs the same at 1,000 chats as at 10,000.

// Page sizes of the chat list.
const (
	DefaultChatPage = 200
	MaxChatPage     = 1000
)

// ChatPage is one page of the chat list.
type ChatPage struct {
	Chats []ChatView `json:"chats"`
	// More says whether chats follow this page; Next is the cursor that
	// reads them.
	More bool   `json:"more"`
	Next string `json:"next,omitempty"`
}

// ChatList reads the page of up to limit chats (DefaultChatPage when 0, at
// most MaxChatPage) that follows the cursor after ("" for the first page;
// else a ChatPage's Next). Each chat carries the number of its open
// requests; an archived chat's questions are not counted (docs/behaviour.md).
func (s *Service) ChatList(ctx context.Context, after string, limit int) (ChatPage, error) {
	cur, err := parseChatCursor(after)
	if err != nil {
		return ChatPage{}, err
	}
	if limit <= 0 {
		limit = DefaultChatPage
	}
	limit = min(limit, MaxChatPage)
	if err := s.expireDue(ctx); err != nil {
		return ChatPage{}, err
	}
	page := ChatPage{Chats: []ChatView{}}
	err = s.db.ReadTx(ctx, func(tx store.Handle) error {
		cs, err := s.store.ListChats(ctx, tx, cur, limit+1)
		if err != nil {
			return err
		}
		if len(cs) > limit {
			cs, page.More = cs[:limit], true
			last := cs[limit-1]
			page.Next = chatCursor(last)
		}
		var active []string
		for _, c := range cs {
			if c.State == store.ChatActive {
				active = append(active, c.ID)
			}
		}
		pending, err := s.store.PendingCounts(ctx, tx, active)
		if err != nil {
			return err
		}
		for _, c := range cs {
			page.Chats = append(page.Chats, chatViewOf(c, pending))
		}
		return nil
	})
	return page, err
}

// A cursor is "<updated_at in unix ms>.<chat id>" of a page's last chat.
func chatCursor(c store.Chat) string { return strconv.FormatInt(c.UpdatedAt, 10) + "." + c.ID }

// CheckChatCursor refuses a cursor that no page's Next can be, before
// anything is read (the CLI makes that a usage error).
func CheckChatCursor(s string) error {
	_, err := parseChatCursor(s)
	return err
}

func parseChatCursor(s string) (store.ChatCursor, error) {
	if s == "" {
		return store.ChatCursor{}, nil
	}
	ms, id, ok := strings.Cut(s, ".")
	at, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil || id == "" {
		return store.ChatCursor{}, errorf(CodeInvalidArgument, "the chat list cursor is malformed: pass the next value of the page before")
	}
	return store.ChatCursor{UpdatedAt: at, ID: id}, nil
}
