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
var qs = store.NewQueries()

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
