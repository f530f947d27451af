package chat

import (
	"context"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"followup/store"
)

// The `pending --json` document of every active chat is kept in the
// database once a reader has made it (migration 0012): the next reader
// copies one row out, instead of reading the list, the proposals waiting
// on it and the pending approvals, and joining them. Triggers on every
// table it is made from move a generation, whichever process changes them;
// the document is current only at the generation it was made at, and one
// made while the generation moved is not kept.

// pendingDocFormat names the shape of the kept document: the build that
// makes it. A document kept by another build is made again. A build from a
// tree with uncommitted changes (its shape may differ from its revision's)
// keeps none ("").
var pendingDocFormat = sync.OnceValue(func() string {
	const format = "1" // the document's own version: change it with its shape
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return format
	}
	rev := ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				return ""
			}
		}
	}
	return format + "/" + info.Main.Version + "/" + rev
})

// keepWait bounds how long keeping a document made waits for another
// process's write: keeping it is only for the next reader.
const keepWait = 200 * time.Millisecond

// PendingJSON is the `pending --json` document of every active chat.
type PendingJSON struct {
	doc string
	// Set when this call made the document, for Keep.
	s      *Service
	gen    int64
	format string
}

// PendingJSON returns the `pending --json` document of every active chat
// (PendingList.WriteTo's), as kept when it is current, else made afresh
// from the list. Overdue requests are expired first, as for every list.
func (s *Service) PendingJSON(ctx context.Context) (*PendingJSON, error) {
	if err := s.expireDue(ctx); err != nil {
		return nil, err
	}
	format := pendingDocFormat()
	var gen int64
	if format != "" {
		g, doc, current, err := s.store.PendingDoc(ctx, s.reader(), format)
		if err != nil {
			return nil, err
		}
		if current {
			return &PendingJSON{doc: doc}, nil
		}
		gen = g // read before the list: a change after it moves it
	}
	list, err := s.pendingList(ctx, "")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if _, err := list.WriteTo(&b); err != nil {
		return nil, err
	}
	return &PendingJSON{doc: b.String(), s: s, gen: gen, format: format}, nil
}

// WriteTo writes the document.
func (d *PendingJSON) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, d.doc)
	return int64(n), err
}

// Keep keeps a document this call made for the next reader, unless what
// it is made from changed since, the database cannot be written, or
// another process holds the write for longer than keepWait. A document
// that is not kept is made again next time: nothing is lost.
func (d *PendingJSON) Keep(ctx context.Context) {
	if d.s == nil || d.format == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, keepWait)
	defer cancel()
	_ = d.s.db.Write(ctx, func(tx store.Handle) error {
		_, err := d.s.store.KeepPendingDoc(ctx, tx, d.gen, d.format, d.doc)
		return err
	})
}
