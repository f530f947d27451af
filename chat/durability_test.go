package chat_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"followup/chat"
	"followup/store"
)

// A deploy flow with the offline agent: ask → the agent asks for an
// environment → answer (or cancel) → the agent replies and the run ends.
// Undisturbed it makes exactly two model calls and this history:
var deployHistory = []string{"user", "assistant", "tool", "user", "assistant"}

// The crash steps each command of the flow passes, in order.
var (
	askSteps = []string{chat.CrashDrive, chat.CrashModelReplied, chat.CrashTurnRecorded, chat.CrashToolRan,
		chat.CrashToolResultRecorded, chat.CrashSettled}
	replySteps = []string{chat.CrashDrive, chat.CrashDeliveryUnknown, chat.CrashDeliveryWritten,
		chat.CrashModelReplied, chat.CrashTurnRecorded, chat.CrashSettled}
)

// deployFlow is one run of that flow; crash names the step at which the
// phase's command is killed, and each kill is followed by the checks of
// docs/behaviour.md and `resume`.
type deployFlow struct {
	w      *world
	name   string
	phase  string // "ask", "answer" or "cancel": the command that crashes
	crash  string // crash step ("" = none)
	choice string
	kills  *atomic.Int64
}

func (f deployFlow) run() {
	w, t := f.w, f.w.t
	ctx := context.Background()
	askCmd, replyCmd := "ask-"+f.name, "reply-"+f.name
	// Only the command under test runs in a child; the rest of the flow runs
	// in this process, through the same host.
	var runID string
	text := "Check deployment (" + f.name + ")"
	if f.phase == "ask" {
		r := w.cli.run(crashAt(f.crash), "ask", text, "--command-id", askCmd)
		if runID = w.runOfCommand(askCmd); runID == "" {
			t.Fatalf("%s: ask left no run: %s", f.name, r)
		}
		f.afterKill(r, runID, "ask", store.RunWaitingInput)
	} else {
		sent, err := w.svc.Send(ctx, "", text, askCmd)
		if err != nil {
			t.Fatal(err)
		}
		runID = sent.RunID
		if v, err := w.svc.Drive(ctx, runID); err != nil || v.State != store.RunWaitingInput {
			t.Fatalf("%s: ask: %+v %v", f.name, v, err)
		}
	}
	if n := w.count(`SELECT model_calls FROM runs WHERE id = ?`, runID); n != 1 {
		t.Errorf("%s: %d model calls before the answer, want 1", f.name, n)
	}
	rq := w.onlyRequest(runID)
	if rq == "" {
		t.Fatalf("%s: the agent asked nothing", f.name)
	}
	switch f.phase {
	case "ask":
		_, err := w.svc.Answer(ctx, chat.AnswerInput{RequestID: rq, Values: map[string]any{"environment": f.choice}, CommandID: replyCmd})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.svc.Drive(ctx, runID); err != nil {
			t.Fatal(err)
		}
	default:
		reply := []string{"answer", rq, "--values-json", `{"environment":"` + f.choice + `"}`, "--command-id", replyCmd}
		if f.phase == "cancel" {
			reply = []string{"cancel", rq, "--command-id", replyCmd}
		}
		r := w.cli.run(crashAt(f.crash), reply...)
		if r.Killed {
			// Every crash step follows the answer's commit: it must be kept.
			f.checkReply(rq, replyCmd)
		}
		f.afterKill(r, runID, f.phase, store.RunSucceeded)
	}
	f.checkReply(rq, replyCmd)

	run, err := w.svc.GetRun(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"environment":"` + f.choice + `"}`
	if f.phase == "cancel" {
		want = `{}`
	}
	if run.State != store.RunSucceeded || str(run.Result) != want {
		t.Errorf("%s: run %s result %s, want succeeded %s", f.name, run.State, str(run.Result), want)
	}
	if f.phase != "cancel" && !strings.Contains(run.Reply, f.choice) {
		t.Errorf("%s: reply %q does not name %s", f.name, run.Reply, f.choice)
	}
	if run.ModelCalls != 2 {
		t.Errorf("%s: %d model calls, want 2", f.name, run.ModelCalls)
	}
	w.checkHistory(runID, deployHistory...)
	if n := w.count(`SELECT COUNT(*) FROM deliveries WHERE run_id = ?`, runID); n != 1 {
		t.Errorf("%s: %d deliveries, want 1", f.name, n)
	}
}

// afterKill checks a killed command's leftovers and resumes the run; a
// command that was not killed must have reached want.
func (f deployFlow) afterKill(r fuResult, runID, what, want string) {
	w, t := f.w, f.w.t
	t.Helper()
	if !r.Killed {
		t.Fatalf("%s: %s was not killed: %s", f.name, what, r)
	}
	f.kills.Add(1)
	w.checkRecoverable(runID, f.name+" after "+what)
	v, err := w.svc.Resume(context.Background(), runID)
	if chat.CodeOf(err) == chat.CodeTargetClosed {
		err = nil // the run had ended before the kill: nothing to resume
	}
	if err != nil || string(v.State) != want {
		t.Fatalf("%s: resume after %s: %s %v, want %s", f.name, what, v.State, err, want)
	}
}

// checkReply asserts the confirmed answer or cancellation is recorded,
// under its command id.
func (f deployFlow) checkReply(rq, commandID string) {
	w, t := f.w, f.w.t
	t.Helper()
	if f.phase == "cancel" {
		if n := w.count(`SELECT COUNT(*) FROM requests r JOIN receipts c ON c.command_id = ? WHERE r.id = ? AND r.state = 'cancelled'`, commandID, rq); n != 1 {
			t.Errorf("%s: the confirmed cancellation of %s was lost", f.name, rq)
		}
		return
	}
	if n := w.count(`SELECT COUNT(*) FROM answers WHERE request_id = ? AND command_id = ? AND json_extract(vals, '$.environment') = ?`,
		rq, commandID, f.choice); n != 1 {
		t.Errorf("%s: the confirmed answer to %s was lost", f.name, rq)
	}
}

// TestCrashAtEveryStep kills the command of each phase at each crash step,
// several runs at a time on one database, and resumes.
func TestCrashAtEveryStep(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	phases := []string{"ask", "answer", "cancel"}
	if fewer() {
		phases = phases[:2]
	}
	var flows []deployFlow
	var kills, ran atomic.Int64
	for _, phase := range phases {
		steps := replySteps
		if phase == "ask" {
			steps = askSteps
		}
		for i, step := range steps {
			flows = append(flows, deployFlow{w: w, name: phase + "@" + step, phase: phase, crash: step,
				choice: []string{"production", "staging"}[i%2], kills: &kills})
		}
	}
	t.Run("flows", func(t *testing.T) {
		for _, f := range flows {
			t.Run(f.name, func(t *testing.T) {
				t.Parallel()
				ran.Add(1)
				f.w = w.on(t)
				f.run()
			})
		}
	})
	t.Logf("%d runs, %d killed at a step and resumed", ran.Load(), kills.Load())
	if kills.Load() != ran.Load() {
		t.Errorf("%d kills in %d runs: some crash steps were not reached", kills.Load(), ran.Load())
	}
}

// TestCrashDuringRecovery kills every command of one run, resumes
// included, each at the next step, until the run has passed them all.
func TestCrashDuringRecovery(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	kill := func(step string, args ...string) {
		t.Helper()
		r := w.cli.run(crashAt(step), args...)
		if !r.Killed {
			t.Fatalf("followup %v with a crash at %s was not killed: %s", args, step, r)
		}
	}
	kill(askSteps[0], "ask", "Check deployment", "--command-id", "ask-1")
	runID := w.runOfCommand("ask-1")
	kills := 1
	for _, step := range askSteps[1:] {
		w.checkRecoverable(runID, "before "+step)
		kill(step, "resume", runID)
		kills++
	}
	w.checkRecoverable(runID, "after the ask")
	rq := w.onlyRequest(runID)
	kill(replySteps[0], "answer", rq, "--values-json", `{"environment":"staging"}`)
	kills++
	for _, step := range replySteps[1:] {
		w.checkRecoverable(runID, "before "+step)
		kill(step, "resume", runID)
		kills++
	}
	w.checkRecoverable(runID, "at the end")
	// The last kill may have come after the run ended: then resume says
	// there is nothing left to do.
	res := w.cli.run(nil, "resume", runID)
	state := str(res.JSON, "run", "state")
	if str(res.JSON, "error", "code") == chat.CodeTargetClosed {
		state = str(res.JSON, "error", "details", "state")
	}
	run, _ := w.svc.GetRun(ctx, runID)
	if state != store.RunSucceeded || str(run.Result) != `{"environment":"staging"}` || run.ModelCalls != 2 {
		t.Fatalf("after %d kills: %s; run %+v", kills, res, run)
	}
	w.checkHistory(runID, deployHistory...)
	t.Logf("one run killed %d times in a row, then finished", kills)
}

// TestCrashAnywhere kills commands after a random delay — at instants no
// crash step names, such as inside a SQLite commit — and recovers the way a
// script would: resume, and repeat a command that never committed with
// the same command id.
func TestCrashAnywhere(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := 8
	if fewer() {
		n = 3
	}
	// How long an undisturbed ask and answer take here bounds the delays.
	start := time.Now()
	ask := w.cli.ok(nil, "ask", "Check deployment")
	askTook := time.Since(start)
	start = time.Now()
	w.cli.ok(nil, "answer", str(ask.JSON, "pending", 0, "id"), "--values-json", `{"environment":"staging"}`)
	answerTook := time.Since(start)

	var kills atomic.Int64
	var mu sync.Mutex
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	t.Logf("seed %d; ask takes %v, answer %v", seed, askTook, answerTook)
	delay := func(d time.Duration) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return time.Duration(rng.Int64N(int64(d) + 1))
	}
	t.Run("flows", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				w.on(t).randomKillFlow(i, delay(askTook), delay(answerTook), &kills)
			})
		}
	})
	t.Logf("%d runs, %d commands killed at random instants", n, kills.Load())
}

func (w *world) randomKillFlow(i int, askDelay, answerDelay time.Duration, kills *atomic.Int64) {
	t := w.t
	ctx := context.Background()
	askCmd, replyCmd := fmt.Sprintf("ask-%d", i), fmt.Sprintf("reply-%d", i)
	choice := []string{"production", "staging"}[i%2]
	if w.killAfter(askDelay, "ask", "Check deployment", "--command-id", askCmd) {
		kills.Add(1)
		if runID := w.runOfCommand(askCmd); runID != "" {
			w.checkRecoverable(runID, fmt.Sprintf("flow %d after ask", i))
		}
	}
	// The same command id again: the same run (or a first one), driven on.
	sent, err := w.svc.Send(ctx, "", "Check deployment", askCmd)
	if err != nil {
		t.Fatal(err)
	}
	runID := sent.RunID
	if v, err := w.svc.Drive(ctx, runID); err != nil || v.State != store.RunWaitingInput {
		t.Fatalf("flow %d: ask again: %+v %v", i, v, err)
	}
	rq := w.onlyRequest(runID)
	answer := []string{"answer", rq, "--values-json", `{"environment":"` + choice + `"}`, "--command-id", replyCmd}
	if w.killAfter(answerDelay, answer...) {
		kills.Add(1)
		w.checkRecoverable(runID, fmt.Sprintf("flow %d after answer", i))
		// A run that had already ended has nothing to resume.
		if _, err := w.svc.Resume(ctx, runID); err != nil && chat.CodeOf(err) != chat.CodeTargetClosed {
			t.Fatal(err)
		}
	}
	// Applied now, or the original receipt.
	rc, err := w.svc.Answer(ctx, chat.AnswerInput{RequestID: rq, Values: map[string]any{"environment": choice}, CommandID: replyCmd})
	if err != nil || rc.CommandID != replyCmd {
		t.Fatalf("flow %d: answer again: %+v %v", i, rc, err)
	}
	run, err := w.svc.Drive(ctx, runID)
	if err != nil || run.State != store.RunSucceeded || str(run.Result) != `{"environment":"`+choice+`"}` || run.ModelCalls != 2 {
		t.Fatalf("flow %d: run %+v %v", i, run, err)
	}
	w.checkHistory(runID, deployHistory...)
}

// killAfter starts a command and SIGKILLs it after d; it reports whether
// the kill came before the command ended.
func (w *world) killAfter(d time.Duration, args ...string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdout, stderr := w.cli.command(ctx, nil, args...)
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	return w.cli.result(err, cmd, stdout, stderr).Killed
}
