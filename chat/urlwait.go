package chat

import (
	"context"
	"time"

	"followup/agent"
	"followup/store"
)

// After a -32042 (URLElicitationRequired) the server recognises the call
// made again by its connection: server-everything keys what it asked on
// the session, and a new process has a new one, so a retry from `followup
// answer` in another shell would be refused with the same link forever.
// The process whose call got -32042 therefore keeps the connection and
// waits until every link is done or declined — in its chat screen, or by
// `followup answer`/`cancel` from another shell — then makes the call
// again itself, as it waits for a classic elicitation (elicit.go). A drive
// with --no-wait, or one that ends first, leaves the links pending: the
// call is then made again by whichever process drives the run next.

// awaitLinks waits until the links the call's server asked for are all
// closed. It reports false when this drive does not wait (--no-wait, no
// drive of this process) or ended first.
func (h *mcpHost) awaitLinks(ctx context.Context, cc agent.CallContext) (bool, error) {
	drive, ok := h.drive(cc.RunID)
	if !ok || drive.noWait {
		return false, nil
	}
	s := h.s
	if err := h.markRunWaiting(ctx, cc); err != nil {
		return false, err
	}
	tick := time.NewTicker(elicitDeadlineEvery)
	defer tick.Stop()
	err := s.waitFor(ctx, drive.ctx.Done(), tick.C, nil, func() (bool, error) {
		open, err := h.linksOpen(ctx, cc)
		return !open, err
	})
	if err == errDriveEnded || err != nil && err == ctx.Err() {
		return false, nil
	}
	return err == nil, err
}

// linksOpen says whether the step still waits for one of its links. A
// step no longer waiting (closed by a stop, decided elsewhere) is not.
func (h *mcpHost) linksOpen(ctx context.Context, cc agent.CallContext) (bool, error) {
	s := h.s
	if err := s.expireDue(ctx); err != nil {
		return false, err
	}
	step, err := s.store.GetToolStep(ctx, s.reader(), cc.RunID, cc.ToolCallID)
	if err != nil || step.State != store.StepInputRequired {
		return false, err
	}
	_, open, err := h.replies(ctx, s.reader(), decodeWait(step.RequestState))
	return open, err
}

// markRunWaiting shows the run waiting for the user while the links are
// open (an answer sets it running again, mcprequests.go).
func (h *mcpHost) markRunWaiting(ctx context.Context, cc agent.CallContext) error {
	s := h.s
	return s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, cc.RunID)
		if err != nil {
			return err
		}
		_, err = s.moveRun(ctx, tx, &run, store.RunRunning, store.RunWaitingInput)
		return err
	})
}
