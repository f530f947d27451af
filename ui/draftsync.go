package ui

import (
	"context"
	"sync"

	"followup/chat"
	"followup/forms"
)

// Another hand may write the draft of the question on screen: a proposal
// accepted from the CLI (`followup decide`), another window. The screen
// must show what the store accepted and never overwrite it with its older
// draft (docs/behaviour.md). So every save sends the draft it was edited from (its
// base), and the host merges rather than overwrites when the stored draft
// is no longer that (chat.SaveDraft); and a snapshot that shows a stored
// draft other than the base brings the other hand's values into the form
// (takeConfirmed, confirmed.go).
//
// A snapshot read before this screen's own save landed shows an older
// draft of its own, which is no news: only a snapshot whose load began
// after the newest save of that draft landed is believed. One read too
// early that showed a draft this screen never wrote is read again once
// the save lands.

// storedDraft is what the store holds of one revision's draft as this
// screen's own writes left it: the base each save sends. The saver may
// skip a save replaced by a newer one before it was written, so the base
// is read when the write runs, not when it is asked.
type storedDraft struct {
	mu     sync.Mutex
	values forms.Values
}

func (s *storedDraft) get() forms.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.values
}

func (s *storedDraft) set(v forms.Values) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.values = mergeValues(v)
}

// save writes d over the draft this screen last wrote or read.
func (s *storedDraft) save(ctx context.Context, svc *chat.Service, d chat.Draft) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d.Base = mergeValues(s.values)
	err := svc.SaveDraft(ctx, d)
	if err == nil {
		s.values = mergeValues(d.Values)
	}
	return err
}

// draftSync is what the pane knows of its forms' stored drafts.
type draftSync struct {
	stored  map[string]*storedDraft // per liveKey
	known   map[string]bool         // the live form's drafts this screen wrote or read (valuesKey)
	saving  map[string]int          // per liveKey: saves asked that have not landed
	landed  map[string]int          // per liveKey: the loads begun when its newest save landed (loadSeq)
	seq     int                     // the load the pane's drafts came with (0: unordered)
	recheck bool                    // a read too early showed a draft not known: read again
}

// of is key's stored draft.
func (s *draftSync) of(key string) *storedDraft {
	d, ok := s.stored[key]
	if !ok {
		d = &storedDraft{values: forms.Values{}}
		s.stored[key] = d
	}
	return d
}

// installed starts over for a form just installed from a draft: the
// store's (read), or one this screen kept and asked to save itself.
func (s *draftSync) installed(key string, draft forms.Values, read bool) {
	if read {
		s.of(key).set(draft)
	}
	s.known = map[string]bool{valuesKey(mergeValues(draft)): true}
}

// asked notes a save of key's draft asked now.
func (s *draftSync) asked(key string, values forms.Values) {
	s.known[valuesKey(mergeValues(values))] = true
	s.saving[key]++
}

// landedNow notes that a save of key's draft landed, loadSeq being the
// loads begun so far; it reports whether the chat must be read again.
func (s *draftSync) landedNow(key string, loadSeq int) bool {
	if s.saving[key] > 0 {
		s.saving[key]--
	}
	s.landed[key] = loadSeq
	if s.recheck && s.saving[key] == 0 {
		s.recheck = false
		return true
	}
	return false
}

// news is key's stored draft as the pane's newest snapshot read it (d),
// when another hand wrote it since this screen last knew, with what this
// screen knew (base); taking it makes it the base of the next save.
func (s *draftSync) news(key string, d draftLoadedMsg, ok bool) (stored, base forms.Values, _ bool) {
	if !ok {
		return nil, nil, false
	}
	stored = mergeValues(d.draft)
	k := valuesKey(stored)
	if s.saving[key] > 0 || s.seq != 0 && s.seq <= s.landed[key] {
		if !s.known[k] {
			s.recheck = true
		}
		return nil, nil, false // read before this screen's own save landed
	}
	if base = s.of(key).get(); k == valuesKey(base) {
		return nil, nil, false
	}
	s.known[k] = true
	s.of(key).set(stored)
	return stored, base, true
}

// storedNews is the live form's stored draft when another hand wrote it
// since this screen last knew (draftSync.news).
func (p *formPane) storedNews() (stored, base forms.Values, _ bool) {
	d, ok := p.drafts[p.liveKey]
	return p.sync.news(p.liveKey, d, ok)
}
