package chat

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"

	"followup/forms"
	"followup/store"
)

// command runs fn as one idempotent mutation in one transaction (docs/input-requests.md),
// after expiring what is overdue (expiry.go).
// The first successful result is stored as the receipt of commandID;
// repeating the command returns it unchanged, even after the target closed,
// and reusing the id for other arguments is COMMAND_ID_CONFLICT. A failure
// stores nothing, changes nothing and announces nothing; what fn emits is
// published once committed (a repeat publishes nothing).
func (s *Service) command(ctx context.Context, commandID, kind string, chatID *string, args any, fn func(tx *txn) (any, error)) (json.RawMessage, error) {
	if err := s.expireDue(ctx); err != nil && s.db.CheckFile() == "" {
		return nil, err
	} // with the file gone, the write below refuses in words what the expiry's read could not say
	if commandID == "" {
		commandID = NewID("cmd")
	}
	b, _ := json.Marshal(args)
	hash := canonicalHash(kind+"\x00", b)
	var out json.RawMessage
	err := s.write(ctx, func(tx *txn) error {
		r, err := s.store.GetReceipt(ctx, tx, commandID)
		switch {
		case err == nil:
			if r.Kind != kind || r.ArgsHash != hash {
				return errorf(CodeCommandIDConfl, "command id %q was already used for a different command", commandID)
			}
			out = json.RawMessage(r.Result)
			return nil
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		res, err := fn(tx)
		if err != nil {
			return err
		}
		if c, ok := res.(commandIDSetter); ok {
			c.setCommandID(commandID)
		}
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		out = b
		return s.store.InsertReceipt(ctx, tx, store.Receipt{
			CommandID: commandID, ChatID: receiptChat(chatID), Kind: kind, ArgsHash: hash, Result: string(b), CreatedAt: s.nowMS(),
		})
	})
	return out, err
}

// txn is a write transaction that gathers the events of what it changes,
// each once: they are published once it has committed, never for a write
// rolled back. What it must do in this process once committed (cancel a
// drive it stopped) runs before they are published.
type txn struct {
	store.Handle
	events []Event
	after  []func()
}

// onCommit runs f once the transaction has committed, before its events
// are published.
func (t *txn) onCommit(f func()) { t.after = append(t.after, f) }

func (t *txn) emit(es ...Event) {
	for _, e := range es {
		if !slices.Contains(t.events, e) {
			t.events = append(t.events, e)
		}
	}
}

// requestEvent says that r changed.
func requestEvent(r store.Request) Event {
	return Event{Kind: EvRequest, ChatID: r.ChatID, RunID: r.RunID.String, RequestID: r.ID}
}

// write runs fn in one transaction (store.Write) and publishes the events
// it emitted once the transaction has committed.
func (s *Service) write(ctx context.Context, fn func(tx *txn) error) error {
	t := &txn{}
	err := s.db.Write(ctx, func(h store.Handle) error {
		*t = txn{Handle: h}
		return fn(t)
	})
	if err == nil {
		for _, f := range t.after {
			f()
		}
		s.broker.Publish(t.events...)
	}
	return err
}

// commandAs is command for a receipt of type T, decoded from what was
// stored.
func commandAs[T any](s *Service, ctx context.Context, commandID, kind string, chatID *string, args any, fn func(tx *txn) (*T, error)) (T, error) {
	var v T
	out, err := s.command(ctx, commandID, kind, chatID, args, func(tx *txn) (any, error) { return fn(tx) })
	if err == nil {
		err = json.Unmarshal(out, &v)
	}
	return v, err
}

// receiptChat links a receipt to its chat (set by the command as it runs),
// so deleting the chat deletes its receipts.
func receiptChat(chatID *string) sql.NullString {
	if chatID == nil {
		return sql.NullString{}
	}
	return nullString(*chatID)
}

// commandIDSetter lets a receipt carry its own command id.
type commandIDSetter interface{ setCommandID(string) }

// canonicalHash names JSON arguments after prefix: the same arguments,
// whatever their spacing or key order, have the same hash (a command's
// receipt, a request's requestKey).
func canonicalHash(prefix string, raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) == nil {
		raw = forms.CanonicalJSON(v)
	}
	sum := sha256.Sum256(append([]byte(prefix), raw...))
	return hex.EncodeToString(sum[:])
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with values built here
	}
	return string(b)
}

func nullInt(n int64) sql.NullInt64 { return sql.NullInt64{Int64: n, Valid: true} }
