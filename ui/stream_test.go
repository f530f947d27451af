package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"followup/agent"
	"followup/chat"
	"followup/ui/transcript"
)

// streamKit is a screen on a chat whose run streams: the run's id and the
// chat's, with a snapshot on screen taken before the reply was stored.
func streamKit(t *testing.T) (*kit, string) {
	k := newKit(t)
	sent := k.ask("hello")
	k.load(sent.ChatID)
	return k, sent.RunID
}

func delta(chatID, runID, text string) eventMsg {
	return eventMsg(chat.Event{Kind: chat.EvStream, ChatID: chatID, RunID: runID, Delta: text})
}

// TestStreamDrawsOncePerFrame: deltas only collect; the frame after them
// draws them all at once, and only the first asks for that frame.
func TestStreamDrawsOncePerFrame(t *testing.T) {
	k, runID := streamKit(t)
	m := k.m
	frame := m.View()
	var ticks int
	var want strings.Builder
	for i := range 200 {
		text := strings.Repeat("word ", i%7) + "\n"
		want.WriteString(text)
		_, cmd := m.Update(delta(m.cur.chatID, runID, text))
		if cmd != nil {
			ticks++
		}
	}
	if ticks != 1 || m.View() != frame {
		t.Fatalf("200 deltas: %d frames asked for, frame changed %v; want 1 frame, nothing drawn",
			ticks, m.View() != frame)
	}
	m.Update(transcript.FrameMsg{})
	if m.View() == frame || streamText(m) != want.String() {
		t.Fatalf("after the frame: frame changed %v, text %d bytes of %d", m.View() != frame, len(streamText(m)), want.Len())
	}
	if !strings.HasSuffix(m.transcriptContent(), transcript.New().Content(transcript.Input{Messages: []chat.Message{{ID: 1, Role: "assistant", Content: want.String()}}, Width: m.width})) {
		t.Fatal("the frame does not end with the streamed reply")
	}
	if _, cmd := m.Update(delta(m.cur.chatID, runID, "more")); cmd == nil {
		t.Fatal("a delta after the frame asks for no frame")
	}
}

// TestStreamOtherChatNotDrawn: a delta for another chat is not kept.
func TestStreamOtherChatNotDrawn(t *testing.T) {
	k, runID := streamKit(t)
	k.m.Update(delta("other-chat", runID, "not here"))
	k.m.Update(transcript.FrameMsg{})
	if streamShown(k.m) || strings.Contains(k.m.transcriptContent(), "not here") {
		t.Fatal("another chat's stream is drawn")
	}
}

// TestStreamStaysUntilReplyStored: after the call's Reset the streamed
// text stays on screen until a snapshot shows the stored reply, which then
// takes its place: the reply never disappears in between.
func TestStreamStaysUntilReplyStored(t *testing.T) {
	k, runID := streamKit(t)
	m := k.m
	m.Update(delta(m.cur.chatID, runID, "partial reply"))
	m.Update(transcript.FrameMsg{})
	early := loadChat(k.svc, m.cur.chatID, m.nextLoad()) // begun before the Reset
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: runID, Reset: true}))
	if !strings.Contains(m.transcriptContent(), "partial reply") {
		t.Fatal("the Reset took the streamed text away before the reply was shown")
	}
	m.Update(early())
	if !streamShown(m) {
		t.Fatal("a snapshot begun before the Reset cleared the stream")
	}
	m.Update(loadChat(k.svc, m.cur.chatID, m.nextLoad())())
	if streamShown(m) || strings.Contains(m.transcriptContent(), "partial reply") {
		t.Fatal("the run ended, yet its streamed text is still drawn")
	}
}

// TestStreamRetryReplacesText: a Reset followed by new deltas (a retried
// call) draws only the new text.
func TestStreamRetryReplacesText(t *testing.T) {
	k, runID := streamKit(t)
	m := k.m
	m.Update(delta(m.cur.chatID, runID, "broken stream"))
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: runID, Reset: true}))
	m.Update(delta(m.cur.chatID, runID, "second try"))
	m.Update(transcript.FrameMsg{})
	if c := m.transcriptContent(); strings.Contains(c, "broken") || !strings.Contains(c, "second try") {
		t.Fatalf("after a retry the transcript ends %q", c[max(0, len(c)-200):])
	}
}

// TestStreamOtherRunResetKeepsText: a Reset for another run leaves the
// streaming reply as it is.
func TestStreamOtherRunResetKeepsText(t *testing.T) {
	k, runID := streamKit(t)
	m := k.m
	m.Update(delta(m.cur.chatID, runID, "still streaming"))
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: "run_other", Reset: true}))
	m.Update(delta(m.cur.chatID, runID, " on"))
	m.Update(transcript.FrameMsg{})
	if streamText(m) != "still streaming on" || !strings.Contains(m.transcriptContent(), "still streaming on") {
		t.Fatalf("after another run's Reset the stream is %q", streamText(m))
	}
}

// TestStreamNotDrawnUnderItsStoredReply: a snapshot of a load begun
// before the stream, read once the reply was stored, can reach the screen
// before the stream's end does (before its Reset, or after it): the reply
// is drawn once, not under the streamed copy of itself.
func TestStreamNotDrawnUnderItsStoredReply(t *testing.T) {
	for _, afterReset := range []bool{false, true} {
		k := newKit(t)
		sent := k.ask("hello")
		k.load(sent.ChatID)
		m := k.m
		var reply string
		at := -1
		for i, msg := range m.cur.messages {
			if msg.Role == "assistant" && msg.RunID == sent.RunID {
				reply, at = msg.Content, i
			}
		}
		first, _, _ := strings.Cut(reply, "\n")
		if len(first) < 4 {
			t.Fatalf("the demo reply %q is too short", reply)
		}
		m.tr.ClearStream()
		m.cur.messages = m.cur.messages[:at] // the screen before the reply was stored
		m.tr.Changed()
		early := loadChat(k.svc, m.cur.chatID, m.nextLoad()) // begun before the stream
		m.Update(delta(m.cur.chatID, sent.RunID, reply))
		m.Update(transcript.FrameMsg{})
		if afterReset {
			m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: sent.RunID, Reset: true}))
		}
		m.Update(early())
		if n := strings.Count(m.transcriptContent(), first); n != 1 {
			t.Fatalf("after the Reset %v: the reply's first line is drawn %d times", afterReset, n)
		}
	}
}

// TestStreamLateDeltasNotDrawn: once a snapshot shows the call's stored
// reply, the deltas of that call still on their way are not drawn under it.
func TestStreamLateDeltasNotDrawn(t *testing.T) {
	k := newKit(t)
	sent := k.ask("hello")
	k.load(sent.ChatID)
	m := k.m
	// The run's stored reply, as the stream would have spelt it.
	var reply string
	for _, msg := range m.cur.messages {
		if msg.Role == "assistant" && msg.RunID == sent.RunID {
			reply = msg.Content
		}
	}
	if len(reply) < 4 {
		t.Fatalf("the demo reply %q is too short", reply)
	}
	m.tr.ClearStream()
	m.cur.messages = m.cur.messages[:len(m.cur.messages)-1] // the screen before the reply was stored
	m.tr.Changed()
	m.Update(delta(m.cur.chatID, sent.RunID, reply[:2]))
	m.Update(transcript.FrameMsg{})
	m.Update(loadChat(k.svc, m.cur.chatID, m.nextLoad())()) // it shows the reply
	m.Update(delta(m.cur.chatID, sent.RunID, reply[2:]))
	m.Update(transcript.FrameMsg{})
	if streamShown(m) {
		t.Fatalf("deltas after the stored reply are drawn: %q", streamText(m))
	}
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: sent.RunID, Reset: true}))
	m.Update(delta(m.cur.chatID, sent.RunID, "the next call"))
	m.Update(transcript.FrameMsg{})
	if !strings.Contains(m.transcriptContent(), "the next call") {
		t.Fatal("the run's next call is not drawn")
	}
}

// streamer is a model that streams its reply in deltas of a few bytes,
// as fast as it can or with a pause between them.
type streamer struct {
	reply string
	pause time.Duration
}

func (streamer) Name() string { return "streamer" }

func (s streamer) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	for i := 0; i < len(s.reply); i += 3 {
		if req.OnText != nil {
			req.OnText(s.reply[i:min(len(s.reply), i+3)])
		}
		if s.pause > 0 {
			time.Sleep(s.pause)
		}
	}
	return agent.Response{Message: agent.Message{Role: agent.RoleAssistant, Content: s.reply}}, nil
}

// probeMsg asks the program for the transcript as it is drawn now.
type probeMsg struct{ reply chan string }

// watched wraps the screen: after every message it checks that the
// reply's first line is drawn at most once (a second copy would be a
// stream drawn under its stored reply), and it answers probes.
type watched struct {
	*model
	first string
	twice chan string
}

func (w watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(probeMsg); ok {
		p.reply <- w.transcriptContent()
		return w, nil
	}
	_, cmd := w.model.Update(msg)
	if c := w.transcriptContent(); strings.Count(c, w.first) > 1 {
		select {
		case w.twice <- c:
		default:
		}
	}
	return w, cmd
}

// TestStreamEndsAsStored: a long reply streamed in 3-byte deltas, as fast
// as the model can and with pauses, through the program with the host's
// events: it is never drawn twice, and at the end the transcript is the
// stored chat exactly.
func TestStreamEndsAsStored(t *testing.T) {
	var b strings.Builder
	b.WriteString("Streamed reply first line.\n\n")
	for i := range 60 {
		b.WriteString(strings.Repeat("Words of **paragraph** `x` ", 1+i%5) + "\n\n")
	}
	reply := b.String()
	for _, pause := range []time.Duration{0, 50 * time.Microsecond} {
		t.Run(pause.String(), func(t *testing.T) {
			k := newKit(t, func(o *chat.Options) { o.Provider = streamer{reply, pause} })
			w := watched{model: k.m, first: "Streamed reply first line.", twice: make(chan string, 1)}
			ctx, cancel := context.WithCancel(context.Background())
			tm := teatest.NewTestModel(t, w, teatest.WithInitialTermSize(100, 30))
			events := k.svc.Subscribe(ctx)
			go func() {
				for e := range events {
					tm.Send(eventMsg(e))
				}
			}()
			t.Cleanup(func() {
				cancel()
				tm.Quit()
				tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
			})
			sent := k.ask("stream please")
			var want string
			deadline := time.Now().Add(10 * time.Second)
			for {
				snap := loadChat(k.svc, sent.ChatID, prep{})().(snapshotMsg)
				want = transcript.New().Content(transcript.Input{Messages: snap.messages, Data: transcript.Data{Reqs: snap.requests}, Width: 100})
				p := probeMsg{make(chan string, 1)}
				tm.Send(p)
				got := <-p.reply
				// Following the newest line, the screen draws older entries
				// only once the user scrolls up to them: what it holds is
				// the stored chat, or its newest entries, a screenful at least.
				if got == want || strings.HasSuffix(want, "\n\n"+got) && strings.Count(got, "\n") >= 30 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the transcript does not settle on the stored chat:\n got %q\nwant %q", tail(got), tail(want))
				}
				time.Sleep(20 * time.Millisecond)
			}
			select {
			case c := <-w.twice:
				t.Fatalf("the reply was drawn twice: %q", tail(c))
			default:
			}
		})
	}
}

func tail(s string) string { return s[max(0, len(s)-300):] }
