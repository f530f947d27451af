package dataset

import (
	"context"
	"strconv"
	"strings"

	"followup/store"
)

// Bulk writers used only to build benchmark databases: they write rows
// directly, without the host's rules (the pending list is rebuilt by the
// next chat.Open, see Build).

// qs is the store's queries the generator writes with.
var qs = store.Queries{}

// insertMessages appends many messages with multi-row inserts; ids are
// assigned in slice order. One statement per 400 rows keeps a 100,000-message load fast.
func insertMessages(ctx context.Context, h store.Handle, ms []store.Message) error {
	const cols = 12
	const rowsPer = 400
	for len(ms) > 0 {
		n := min(len(ms), rowsPer)
		var b strings.Builder
		b.WriteString(`INSERT INTO messages (chat_id, run_id, role, content, tool_calls, tool_call_id, tool_name, request_id,
			delivery_id, visible, for_model, created_at) VALUES `)
		args := make([]any, 0, n*cols)
		for i, m := range ms[:n] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?)")
			args = append(args, m.ChatID, m.RunID, m.Role, m.Content, m.ToolCalls, m.ToolCallID, m.ToolName,
				m.RequestID, m.DeliveryID, m.Visible, m.ForModel, m.CreatedAt)
		}
		if _, err := h.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
		ms = ms[n:]
	}
	return nil
}

// setCacheSize sets the page cache of the connection h runs on, in KiB.
// Bulk loads call it on the writer so big transactions stay in memory.
func setCacheSize(ctx context.Context, h store.Handle, kib int) error {
	_, err := h.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(kib))
	return err
}

// insertRequest writes a request row as it stands, without its pending-list
// entry: Build marks the list stale, and chat.Open rebuilds it.
func insertRequest(ctx context.Context, h store.Handle, r store.Request) (store.Request, error) {
	err := h.QueryRowContext(ctx,
		`INSERT INTO requests (id, seq, chat_id, run_id, request_key, args_hash, tool_call_id, state, revision, digest,
		   reason, title, template, context, expires_at, created_at, updated_at)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM requests), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		 RETURNING seq`,
		r.ID, r.ChatID, r.RunID, r.RequestKey, r.ArgsHash, r.ToolCallID, r.State, r.Revision, r.Digest,
		r.Reason, r.Title, r.Template, r.Context, r.ExpiresAt, r.CreatedAt, r.UpdatedAt).Scan(&r.Seq)
	return r, err
}

// updateRequest rewrites a request row's mutable columns, like insertRequest
// without its pending-list entry.
func updateRequest(ctx context.Context, h store.Handle, r store.Request) error {
	_, err := h.ExecContext(ctx,
		`UPDATE requests SET state = ?, closed_reason = ?, revision = ?, digest = ?, title = ?, template = ?, partial = ?,
		   updated_at = ?, closed_at = ? WHERE id = ?`,
		r.State, r.ClosedReason, r.Revision, r.Digest, r.Title, r.Template, r.Partial, r.UpdatedAt, r.ClosedAt, r.ID)
	return err
}

// insertRevision writes one revision row of a request.
func insertRevision(ctx context.Context, h store.Handle, v store.Revision) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO revisions (request_id, revision, digest, definition, prefill, supplied, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?)`,
		v.RequestID, v.Revision, v.Digest, v.Definition, v.Prefill, v.Supplied, v.CreatedAt)
	return err
}
