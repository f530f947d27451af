package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/store"
)

// ticks reports whether running cmd brings a spinner tick.
func ticks(cmd tea.Cmd) bool {
	for _, msg := range cmdtest.RunTimers(cmd) {
		if _, ok := msg.(spinner.TickMsg); ok {
			return true
		}
	}
	return false
}

// TestSpinnerIdleStops: with no task running the spinner's ticks stop
// (an idle screen is not redrawn twelve times a second); they start
// again when a task runs, and keep going while it does.
func TestSpinnerIdleStops(t *testing.T) {
	k := newKit(t)
	m := k.m
	if _, cmd := m.Update(m.spin.Tick()); ticks(cmd) {
		t.Fatal("an idle screen keeps its spinner ticking")
	}
	_, cmd := m.Update(eventMsg(chat.Event{Kind: chat.EvThinking, ChatID: m.cur.chatID, On: true}))
	if !ticks(cmd) {
		t.Fatal("the spinner did not start again when the model began to answer")
	}
	if _, cmd := m.Update(m.spin.Tick()); !ticks(cmd) {
		t.Fatal("the spinner stopped while a task runs")
	}
}

// A drive that goes on while its run waits for the user (a server's
// question in the middle of a tool call) does not turn the spinner: the
// screen is idle while the user has the word.
func TestSpinnerStopsWhileTheRunWaitsForTheUser(t *testing.T) {
	k := newKit(t)
	m := k.m
	m.driving = true
	m.cur.run = &chat.RunView{ID: "run_1", State: store.RunWaitingInput}
	if _, cmd := m.Update(m.spin.Tick()); ticks(cmd) {
		t.Fatal("the spinner turns while the run waits for the user's answer")
	}
	if strings.Contains(m.statusLine(), m.spin.View()) {
		t.Fatalf("the status line shows a spinner while waiting: %q", m.statusLine())
	}
	m.cur.run.State = store.RunRunning
	if _, cmd := m.Update(eventMsg(chat.Event{Kind: chat.EvThinking, ChatID: m.cur.chatID, On: true})); !ticks(cmd) {
		t.Fatal("the spinner did not start again once the run went on")
	}
}
