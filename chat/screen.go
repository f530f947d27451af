package chat

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"followup/store"
)

// Screen is what the chat screen's first frame needs of one chat.
type Screen struct {
	Chat     ChatView
	Messages []Message     // the newest page of the transcript, oldest first
	Requests []RequestView // the requests that page names, and every pending one
	Pending  []RequestView // the chat's open requests, oldest first
	Run      *RunView      // the chat's newest run, if any
	Composer string        // the composer's saved, unsent text (SaveComposerDraft)
}

// Screen reads, from one snapshot, the newest transcript page of a chat,
// the requests it shows and its newest run — nothing older, so opening a
// chat costs the same however long its history is. Its questions past their
// deadline are expired before they are shown: the snapshot itself says
// whether any is due, so the first frame pays no extra look.
func (s *Service) Screen(ctx context.Context, chatID string, page int) (Screen, error) {
	sc, err := s.screen(ctx, chatID, page)
	if err == nil && s.anyDue(sc.Pending) {
		if err := s.expireDue(ctx); err != nil {
			return sc, err
		}
		sc, err = s.screen(ctx, chatID, page)
	}
	return sc, err
}

func (s *Service) screen(ctx context.Context, chatID string, page int) (Screen, error) {
	var sc Screen
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		c, err := s.store.GetChat(ctx, tx, chatID)
		if err != nil {
			return notFound(err, "chat", chatID)
		}
		sc.Chat = chatViewOf(c, nil) // Pending is counted from the page's open requests below
		if sc.Chat.Serve, err = s.serveInfo(ctx, tx, chatID); err != nil {
			return err
		}
		ms, err := s.store.Transcript(ctx, tx, chatID, 0, page)
		if err != nil {
			return err
		}
		if run, err := s.store.LatestRun(ctx, tx, chatID); err == nil {
			rv := runView(run)
			sc.Run = &rv
		} else if err != store.ErrNotFound {
			return err
		}
		if sc.Composer, err = s.store.GetComposerDraft(ctx, tx, chatID); err != nil {
			return err
		}
		sc.Messages, sc.Requests, err = s.page(ctx, tx, chatID, ms, true)
		for _, r := range sc.Requests {
			if r.State == store.ReqPending {
				sc.Pending = append(sc.Pending, r)
			}
		}
		sc.Chat.Pending = chatViewOf(c, map[string]int{c.ID: len(sc.Pending)}).Pending
		return err
	})
	return sc, err
}

// TranscriptPage is an older page of a chat's transcript (messages with id
// below before) with the requests it names.
func (s *Service) TranscriptPage(ctx context.Context, chatID string, before int64, limit int) ([]Message, []RequestView, error) {
	var msgs []Message
	var reqs []RequestView
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		ms, err := s.store.Transcript(ctx, tx, chatID, before, limit)
		if err != nil {
			return err
		}
		msgs, reqs, err = s.page(ctx, tx, chatID, ms, false)
		return err
	})
	return msgs, reqs, err
}

// page turns transcript rows into messages and reads the requests their
// cards name, plus the chat's pending ones when withPending.
func (s *Service) page(ctx context.Context, tx store.Handle, chatID string, ms []store.Message, withPending bool) ([]Message, []RequestView, error) {
	msgs := make([]Message, len(ms))
	seen := map[string]bool{}
	var ids []string
	for i, m := range ms {
		msgs[i] = messageView(m)
		if id := m.RequestID.String; id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if err := s.subAgentRows(ctx, tx, msgs); err != nil {
		return nil, nil, err
	}
	var rs []store.Request
	revs := map[string]store.Revision{}
	if withPending {
		pend, vs, err := s.store.ListRequestsWithRevisions(ctx, tx, store.RequestFilter{ChatID: chatID, State: store.ReqPending})
		if err != nil {
			return nil, nil, err
		}
		for i, r := range pend {
			revs[r.ID] = vs[i]
			if !seen[r.ID] {
				seen[r.ID] = true
				rs = append(rs, r)
			}
		}
	}
	named, err := s.store.RequestsByID(ctx, tx, ids)
	if err != nil {
		return nil, nil, err
	}
	var missing []string
	for _, r := range named {
		if _, ok := revs[r.ID]; !ok {
			missing = append(missing, r.ID)
		}
	}
	more, err := s.store.CurrentRevisions(ctx, tx, missing)
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(revs, more)
	rs = append(rs, named...)
	slices.SortFunc(rs, func(a, b store.Request) int { return cmp.Compare(a.Seq, b.Seq) })
	views, err := s.views(ctx, tx, rs, revs)
	return msgs, views, err
}
