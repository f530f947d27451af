package dialog

import (
	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// The messages the dialogs hear besides keys and their Size: the root
// hands each to every open dialog (tell).

// Question is what the dialogs about the shown question show of it; the
// root sends it to them after every snapshot.
type Question struct {
	Key      string // the request revision's form (liveKey)
	Req      chat.RequestView
	Mine     forms.Values    // the form's values now
	Shown    forms.Values    // what a review sends, number text as typed
	Problems []forms.Problem // what is wrong with sending it
}

// ChatsRead brings a page of the chat list: the one after the cursor
// After ("" for the first).
type ChatsRead struct {
	Page     chat.ChatPage
	After    string
	Err      error
	Done     *Lifecycle // what the list just did (or tried), for it to say
	NewDraft string     // a read from the top: the text saved in the new chat
	DraftErr error      // why that text could not be read
}

// Unread tells how many confirmed answers of a chat their agent has not
// read yet: deleting it would throw them away.
type Unread struct {
	ChatID string
	N      int
}

// ServerStatus brings the MCP servers' status (and why some could not be
// started again).
type ServerStatus struct {
	Status mcp.Status
	Err    error
}

// Decided reports the decision on an approval or a link to visit (ID:
// the approval's or the question's): after an error, its card may
// decide again.
type Decided struct {
	ID  string
	Err error
}

// Approvals brings the open chat's pending approvals.
type Approvals []chat.ApprovalView

// LifecycleOp is what the chat list does to a chat.
type LifecycleOp int

const (
	OpArchive LifecycleOp = iota
	OpUnarchive
	OpDelete
)

// Lifecycle is what the chat list did (or asks to do) to a chat; as an
// action it is carried out, then the first Limit chats are read again.
type Lifecycle struct {
	Op     LifecycleOp
	ChatID string
	Title  string
	Limit  int // how many chats the list shows after
}

// note is the chat list's line about what it did (err: what it could
// not do, and why); again is the key that undoes an archive.
func (l Lifecycle) note(err error, again string) string {
	name := "“" + style.Truncate(forms.SanitizeLine(l.Title), 40) + "”"
	if err != nil {
		verb := map[LifecycleOp]string{OpArchive: "archive", OpUnarchive: "unarchive", OpDelete: "delete"}[l.Op]
		return "Could not " + verb + " " + name + ": " + chat.AsError(err).Message
	}
	switch l.Op {
	case OpArchive:
		return "Archived " + name + " — read-only; its questions no longer wait. " + again + " unarchives it."
	case OpUnarchive:
		return "Unarchived " + name + " — it takes messages again and its questions wait."
	}
	return "Deleted " + name + "."
}
