package ui

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"followup/agent"
	"followup/chat"
)

// streamTexts are replies that test where a line may be drawn once:
// markdown, wrapping, blank lines, CR LF, tabs, wide characters, emoji
// with modifiers, and escape sequences, some running past a line break or
// never ending.
var streamTexts = []string{
	"Here is the **plan**:\n\n1. Run `make test` on the branch.\n2. Deploy it.\n",
	strings.Repeat("a rather long sentence that has to wrap several times at narrow widths, ", 6) + "\nend",
	"crlf line\r\nnext line\r\n\r\nlast\r",
	"tab\tseparated\tcolumns\n\tindented\n",
	"宽字符的句子，需要正确地换行和对齐。宽字符的句子，需要正确地换行和对齐。\n👍🏽 thumbs\n🏽 alone\n",
	"colour \x1b[31mred\x1b[0m and\nmore \x9b31mC1\n",
	"title \x1b]0;a title\nthat spans\x07 lines\nafter it\n",
	"never ends \x1b]2;open\nand on\nand on\n",
	"bidi \u202eevil\u202c and zero\u200bwidth\n\n\n",
	"**bold across\nlines** stays plain\n`code across\nlines` too\n",
}

// TestStreamDrawsWhatIsStored: at every point of a stream, whatever its
// deltas, the streaming reply is drawn exactly as the stored reply with
// the same text would be.
func TestStreamDrawsWhatIsStored(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	texts := append([]string(nil), streamTexts...)
	texts = append(texts, strings.Join(streamTexts, ""))
	for _, width := range []int{12, 37, 100} {
		for ti, text := range texts {
			for trial := range 4 {
				var s stream
				for done := 0; done < len(text); {
					n := 1 + r.IntN(12)
					if trial == 0 {
						n = 1 // a byte at a time
					}
					done = min(len(text), done+n)
					s.raw.WriteString(text[len(s.raw.String()):done])
					got := strings.Join(s.draw(width)[1:], "\n")
					want := renderEntry(chat.Message{Role: "assistant", Content: text[:done]}, entryData{}, width)
					if got != want {
						t.Fatalf("text %d, width %d, after %d bytes:\n got %q\nwant %q", ti, width, done, got, want)
					}
				}
			}
		}
	}
}

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
	m.Update(streamFrameMsg{})
	if m.View() == frame || m.tr.stream.text() != want.String() {
		t.Fatalf("after the frame: frame changed %v, text %d bytes of %d", m.View() != frame, len(m.tr.stream.text()), want.Len())
	}
	if !strings.HasSuffix(m.transcriptContent(), strings.Join(m.tr.stream.draw(m.width)[1:], "\n")) {
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
	k.m.Update(streamFrameMsg{})
	if k.m.tr.stream.shown() || strings.Contains(k.m.transcriptContent(), "not here") {
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
	m.Update(streamFrameMsg{})
	early := loadChat(k.svc, m.cur.chatID, m.nextLoad()) // begun before the Reset
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: runID, Reset: true}))
	if !strings.Contains(m.transcriptContent(), "partial reply") {
		t.Fatal("the Reset took the streamed text away before the reply was shown")
	}
	m.Update(early())
	if !m.tr.stream.shown() {
		t.Fatal("a snapshot begun before the Reset cleared the stream")
	}
	m.Update(loadChat(k.svc, m.cur.chatID, m.nextLoad())())
	if m.tr.stream.shown() || strings.Contains(m.transcriptContent(), "partial reply") {
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
	m.Update(streamFrameMsg{})
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
	m.Update(streamFrameMsg{})
	if m.tr.stream.text() != "still streaming on" || !strings.Contains(m.transcriptContent(), "still streaming on") {
		t.Fatalf("after another run's Reset the stream is %q", m.tr.stream.text())
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
		m.tr.stream.clear()
		m.cur.messages = m.cur.messages[:at] // the screen before the reply was stored
		m.tr.changed()
		early := loadChat(k.svc, m.cur.chatID, m.nextLoad()) // begun before the stream
		m.Update(delta(m.cur.chatID, sent.RunID, reply))
		m.Update(streamFrameMsg{})
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
	m.tr.stream.clear()
	m.cur.messages = m.cur.messages[:len(m.cur.messages)-1] // the screen before the reply was stored
	m.tr.changed()
	m.Update(delta(m.cur.chatID, sent.RunID, reply[:2]))
	m.Update(streamFrameMsg{})
	m.Update(loadChat(k.svc, m.cur.chatID, m.nextLoad())()) // it shows the reply
	m.Update(delta(m.cur.chatID, sent.RunID, reply[2:]))
	m.Update(streamFrameMsg{})
	if m.tr.stream.shown() {
		t.Fatalf("deltas after the stored reply are drawn: %q", m.tr.stream.text())
	}
	m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: sent.RunID, Reset: true}))
	m.Update(delta(m.cur.chatID, sent.RunID, "the next call"))
	m.Update(streamFrameMsg{})
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
				want = newTranscript().render(snap.messages, entryData{reqs: snap.requests}, 100, 0)
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
