package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// Reads over the open requests: deadlines, counts by chat, a template's.

// dueProbe is the cheap look before every read and command of the host: one
// probe of the (small) index of pending requests with a deadline.
const dueProbe = `EXISTS (SELECT 1 FROM requests WHERE state = 'pending' AND expires_at IS NOT NULL AND expires_at <= ?)`

// Lookout says what may need expiring before a read: open serve sessions
// (whose process may have died), open questions of MCP servers asked
// during a call (whose run's process may have died), pending requests past
// their deadline.
type Lookout struct {
	// Sessions are the open serve sessions' seqs, for LostSessions: a
	// server asking on every request reads them here, not in a query of
	// their own.
	Sessions     []int64
	Classic, Due bool
}

// lookout is the three looks of Lookout in one statement: a command
// starts with it, and usually it finds nothing.
const lookout = `SELECT
	(SELECT group_concat(seq) FROM serve_sessions INDEXED BY serve_sessions_open WHERE state = 'open'),
	EXISTS (SELECT 1 FROM mcp_requests INDEXED BY mcp_requests_classic_open WHERE classic = 1 AND open = 1),
	` + dueProbe

// Look reads the Lookout at now, in one probe of three small indexes.
func (Queries) Look(ctx context.Context, h Handle, now int64) (Lookout, error) {
	var l Lookout
	var sessions sql.NullString
	if err := h.QueryRowContext(ctx, lookout, now).Scan(&sessions, &l.Classic, &l.Due); err != nil || !sessions.Valid {
		return l, err
	}
	for seq := range strings.SplitSeq(sessions.String, ",") {
		n, err := strconv.ParseInt(seq, 10, 64)
		if err != nil {
			return l, err
		}
		l.Sessions = append(l.Sessions, n)
	}
	return l, nil
}

// DueRequests lists pending requests whose deadline is at or before now.
func (Queries) DueRequests(ctx context.Context, h Handle, now int64) ([]Request, error) {
	return queryAll(ctx, h, scan[Request],
		`SELECT `+reqCols+` FROM requests WHERE state = 'pending' AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY seq`, now)
}

// PendingCounts counts the open requests of each named chat that has any.
// It reads, through requests_pending_chat, only the named chats' open
// requests: a page of the chat list costs the same at any number of chats.
func (Queries) PendingCounts(ctx context.Context, h Handle, chatIDs []string) (map[string]int, error) {
	out := map[string]int{}
	return out, eachIn(ctx, h, chatIDs, pendingCounts, func(sc rowScanner) error {
		var id string
		var n int
		err := sc.Scan(&id, &n)
		out[id] = n
		return err
	})
}

func pendingCounts(marks string) string {
	return `SELECT chat_id, COUNT(*) FROM requests INDEXED BY requests_pending_chat
		WHERE state = 'pending' AND chat_id IN (` + marks + `) GROUP BY chat_id`
}

// notArchived leaves out the requests of archived chats: the (few,
// indexed) archived chats are listed, not every active one, which would
// cost a temporary B-tree of every chat id on every call.
const notArchived = `chat_id NOT IN (SELECT id FROM chats WHERE state = 'archived' AND id IS NOT NULL)`

// countPendingOutside walks the open requests' index once.
const countPendingOutside = `SELECT COUNT(*) FROM requests INDEXED BY requests_pending_chat
	WHERE state = 'pending' AND chat_id <> ? AND ` + notArchived

// CountPendingOutside counts the open requests of every active chat but
// chatID.
func (Queries) CountPendingOutside(ctx context.Context, h Handle, chatID string) (int, error) {
	var n int
	err := h.QueryRowContext(ctx, countPendingOutside, chatID).Scan(&n)
	return n, err
}

// PendingTemplateRequests lists the pending requests whose form came from
// the named template, oldest first.
func (Queries) PendingTemplateRequests(ctx context.Context, h Handle, name string) ([]Request, error) {
	return queryAll(ctx, h, scan[Request],
		`SELECT `+reqCols+` FROM requests WHERE template = ? AND state = 'pending' ORDER BY seq`, name)
}

// NextDeadline is the earliest deadline of a pending request (unix
// milliseconds); ok is false when none has one.
func (Queries) NextDeadline(ctx context.Context, h Handle) (ms int64, ok bool, err error) {
	var v sql.NullInt64
	err = h.QueryRowContext(ctx, `SELECT MIN(expires_at) FROM requests WHERE state = 'pending' AND expires_at IS NOT NULL`).Scan(&v)
	return v.Int64, v.Valid, err
}

// PendingOutside lists at most limit pending requests of every active chat
// but chatID, oldest first (or newest first): what a screen shows of the
// questions waiting elsewhere, read by walking the open requests' index in
// seq order and stopping there.
func (Queries) PendingOutside(ctx context.Context, h Handle, chatID string, limit int, newestFirst bool) ([]Request, error) {
	order := "seq"
	if newestFirst {
		order = "seq DESC"
	}
	return queryAll(ctx, h, scan[Request], `SELECT `+reqCols+` FROM requests INDEXED BY requests_open
		WHERE state = 'pending' AND chat_id <> ? AND `+notArchived+` ORDER BY `+order+` LIMIT ?`, chatID, limit)
}
