package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// seen scrolls a view down with key until it stops changing, checking
// that no frame is taller than the screen, and returns every line shown.
func seen(t *testing.T, m *model, key tea.KeyType) string {
	t.Helper()
	var all []string
	last := ""
	for range 100 {
		v := frameOf(m)
		if n := strings.Count(v, "\n") + 1; n > m.height {
			t.Fatalf("a frame of %d lines on a %d-line screen:\n%s", n, m.height, v)
		}
		all = append(all, v)
		if v == last {
			break
		}
		last = v
		m.Update(tea.KeyMsg{Type: key})
	}
	return strings.Join(all, "\n")
}

// The review of a seven-field form scrolls on a 50×15 screen: every value
// to be sent can be read, and the frame never outgrows the screen.
func TestReviewScrollsOnASmallScreen(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.m.Update(tea.WindowSizeMsg{Width: 50, Height: 15})
	k.load(k.ask("Plan a trip").ChatID)
	k.m.setFocus(focusForm)
	k.m.openReview()
	first := frameOf(k.m)
	if !containsAll(first, "Review before sending", "of ") {
		t.Fatalf("the review does not say it scrolls:\n%s", first)
	}
	all := seen(t, k.m, tea.KeyDown)
	for _, f := range k.m.pane.pending[0].Fields {
		if !strings.Contains(all, f.DisplayLabel()+":") {
			t.Errorf("%s never shown", f.DisplayLabel())
		}
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyHome})
	if frameOf(k.m) != first {
		t.Fatal("home did not go back to the top")
	}
}

// The chat list keeps its cursor in view, draws only the rows that fit,
// reads on past its first page, and opens on the chat on screen even
// when that one is older than the first page.
func TestChatListScrollsAndPagesThroughEveryChat(t *testing.T) {
	t.Parallel()
	k := newKit(t, withClock) // each chat newer than the one before
	ctx := context.Background()
	n := chat.DefaultChatPage + 30
	var oldest string
	for i := range n {
		s, err := k.svc.Send(ctx, "", fmt.Sprintf("chat number %d", i), "")
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			oldest = s.ChatID
		}
	}
	k.load(oldest)
	press(k.m, tea.KeyMsg{Type: tea.KeyCtrlO})
	d, _ := dialog.Find[dialog.Chats](&k.m.dialogs)
	if complete := strings.Contains(frameOf(k.m), fmt.Sprintf("(%d chats)", n)); len(d.List().Chats()) != n || !complete {
		t.Fatalf("%d chats read (complete %v), want all %d", len(d.List().Chats()), complete, n)
	}
	v := frameOf(k.m)
	if !containsAll(v, "› ", "chat number 0 ", "on screen") || strings.Count(v, "\n")+1 > k.m.height {
		t.Fatalf("the list does not open on the chat on screen, or outgrows the screen:\n%s", v)
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyHome})
	v = frameOf(k.m)
	if cursor := lineWith(v, "› "); !strings.Contains(cursor, fmt.Sprintf("chat number %d", n-1)) {
		t.Fatalf("home does not show the newest chat under the cursor:\n%s", v)
	}
	if strings.Contains(v, "chat number 0 ") {
		t.Fatal("rows out of view were drawn")
	}
}

// With the chat on screen in the first page, End reads on to the real
// last chat and puts the cursor on it; every move after keeps the cursor
// drawn, and the count says how many chats there are.
func TestChatListEndReachesTheLastChat(t *testing.T) {
	t.Parallel()
	k := newKit(t, withClock)
	n := chat.DefaultChatPage + 30
	var newest string
	for i := range n {
		s, err := k.svc.Send(context.Background(), "", fmt.Sprintf("chat number %d", i), "")
		if err != nil {
			t.Fatal(err)
		}
		newest = s.ChatID
	}
	k.load(newest)
	press(k.m, tea.KeyMsg{Type: tea.KeyCtrlO})
	if v := frameOf(k.m); !strings.Contains(v, fmt.Sprintf("(%d+ chats)", dialog.ChatPage(k.m.height))) {
		t.Fatalf("the first page does not say more chats follow:\n%s", v)
	}
	if d, _ := dialog.Find[dialog.Chats](&k.m.dialogs); len(d.List().Chats()) > 2*k.m.height || len(d.List().Chats()) < k.m.height {
		t.Fatalf("the first read took %d chats for a screen of %d lines, want about two screens", len(d.List().Chats()), k.m.height)
	}
	press(k.m, tea.KeyMsg{Type: tea.KeyEnd})
	v := frameOf(k.m)
	if !cursorOn(v, "chat number 0") {
		t.Fatalf("end does not put the cursor on the oldest chat:\n%s", v)
	}
	if !strings.Contains(v, fmt.Sprintf("of %d chats", n)) {
		t.Fatalf("the list does not count every chat:\n%s", v)
	}
	for i, key := range []tea.KeyType{tea.KeyUp, tea.KeyPgUp, tea.KeyDown, tea.KeyPgDown, tea.KeyHome, tea.KeyPgDown} {
		press(k.m, tea.KeyMsg{Type: key})
		d, _ := dialog.Find[dialog.Chats](&k.m.dialogs)
		want := fmt.Sprintf("chat number %d", n-1-d.List().Cursor())
		if v := frameOf(k.m); !cursorOn(v, want) {
			t.Fatalf("after key %d (%v) the cursor is not drawn on %q:\n%s", i, key, want, v)
		}
	}
	press(k.m, tea.KeyMsg{Type: tea.KeyEnd})
	press(k.m, tea.KeyMsg{Type: tea.KeyDown})
	if !cursorOn(frameOf(k.m), "chat number 0") {
		t.Fatalf("down past the last chat left it:\n%s", frameOf(k.m))
	}
}

// cursorOn reports whether the list's cursor is drawn on the chat titled
// title (and not on one whose title only begins so).
func cursorOn(v, title string) bool {
	line := strings.TrimSpace(lineWith(v, "› "))
	return strings.HasSuffix(line, title) || strings.Contains(line, title+" ")
}

// press gives the screen msg and applies what follows from it, as the
// program would, until nothing more comes (timers left out).
func press(m *model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	for msgs := cmdtest.Run(cmd); len(msgs) > 0; {
		var next []tea.Msg
		for _, msg := range msgs {
			_, c := m.Update(msg)
			next = append(next, cmdtest.Run(c)...)
		}
		msgs = next
	}
}

// The composer grows with its text, so a pasted three-line message shows
// its first line and the prompt; past a third of the screen it scrolls.
func TestComposerGrowsWithItsText(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load("")
	k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("line one\nline two\nline three"), Paste: true})
	if v := frameOf(k.m); !containsAll(v, "› line one", "line two", "line three") {
		t.Fatalf("the message is not all in view:\n%s", v)
	}
	long := strings.TrimSpace(strings.Repeat("another line\n", 30))
	k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("\n" + long), Paste: true})
	if got := k.m.composer.Height(); got != k.m.height/3 {
		t.Fatalf("composer is %d rows, want a third of %d", got, k.m.height)
	}
	if n := strings.Count(frameOf(k.m), "\n") + 1; n != k.m.height {
		t.Fatalf("a %d-line frame on a %d-line screen", n, k.m.height)
	}
}

// lineWith is the first line of s holding sub.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
