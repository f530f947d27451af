package chat_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"followup/chat"
	"followup/store"
)

// TestTwoProcessesAnswerAtOnce: two processes answer one request at the
// same instant. Exactly one answer applies; the other process gets the
// original receipt (same command id) or TARGET_CLOSED (another command
// id). Either way the agent gets one delivery and one history message.
func TestTwoProcessesAnswerAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rounds := 2
	if fewer() {
		rounds = 1
	}
	for i := range rounds {
		for _, sameID := range []bool{true, false} {
			name := fmt.Sprintf("round%d/sameCommandID=%v", i, sameID)
			t.Run(name, func(t *testing.T) { w.on(t).answerRace(name, sameID) })
		}
	}
}

func (w *world) answerRace(name string, sameID bool) {
	t := w.t
	ctx := context.Background()
	sent, err := w.svc.Send(ctx, "", "Check deployment", "")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := w.svc.Drive(ctx, sent.RunID); err != nil || v.State != store.RunWaitingInput {
		t.Fatalf("drive: %+v %v", v, err)
	}
	rq := w.onlyRequest(sent.RunID)
	ids := []string{name + "/a", name + "/b"}
	envs := []string{"production", "staging"}
	if sameID {
		ids[1], envs[1] = ids[0], envs[0] // a retried command: same id, same arguments
	}
	// Both children wait for the same instant after starting.
	startAt := []string{startAtEnv + "=" + strconv.FormatInt(time.Now().Add(500*time.Millisecond).UnixNano(), 10)}
	res := make([]fuResult, 2)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = w.cli.run(startAt, "answer", rq, "--values-json", `{"environment":"`+envs[i]+`"}`, "--command-id", ids[i])
		}()
	}
	wg.Wait()

	winner := -1
	for i, r := range res {
		switch {
		case r.Code == 0 && str(r.JSON, "receipt", "commandId") == ids[i] && str(r.JSON, "receipt", "applyState") == chat.Applied:
			if winner >= 0 && !sameID {
				t.Fatalf("both answers applied:\n%s\n%s", res[0], res[1])
			}
			winner = i
		case !sameID && r.Code == 1 && str(r.JSON, "error", "code") == chat.CodeTargetClosed:
		default:
			t.Fatalf("child %d: %s", i, r)
		}
	}
	if winner < 0 {
		t.Fatalf("no answer applied:\n%s\n%s", res[0], res[1])
	}
	if sameID && str(res[0].JSON, "receipt") != str(res[1].JSON, "receipt") {
		t.Fatalf("a repeated command got a different receipt:\n%s\n%s", res[0], res[1])
	}
	if n := w.count(`SELECT COUNT(*) FROM answers WHERE request_id = ? AND command_id = ? AND json_extract(vals, '$.environment') = ?`,
		rq, ids[winner], envs[winner]); n != 1 {
		t.Fatalf("the winning answer is not the one recorded")
	}
	// The loser may have found the run busy; drive whatever is left.
	v, err := w.svc.Drive(ctx, sent.RunID)
	if err != nil || v.State != store.RunSucceeded || str(v.Result) != `{"environment":"`+envs[winner]+`"}` {
		t.Fatalf("run: %+v %v", v, err)
	}
	if n := w.count(`SELECT COUNT(*) FROM deliveries WHERE request_id = ?`, rq); n != 1 {
		t.Fatalf("%d deliveries", n)
	}
	if n := w.count(`SELECT COUNT(*) FROM messages m JOIN deliveries d ON m.delivery_id = d.id WHERE d.request_id = ?`, rq); n != 1 {
		t.Fatalf("%d history messages", n)
	}
	w.checkHistory(sent.RunID, deployHistory...)
}
