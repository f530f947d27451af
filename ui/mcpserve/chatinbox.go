package mcpserve

import (
	"context"

	"followup/chat"
)

// ChatInbox is the Inbox of a followup database: each MCP session is a
// chat.ServeSession of svc.
func ChatInbox(svc *chat.Service) Inbox { return chatInbox{svc} }

type chatInbox struct{ svc *chat.Service }

func (c chatInbox) OpenSession(ctx context.Context, cl Client) (Session, error) {
	return c.svc.OpenServeSession(ctx, cl)
}
