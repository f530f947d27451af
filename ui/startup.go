package ui

import tea "github.com/charmbracelet/bubbletea"

// startup is what the screen holds while it starts and while a first
// message makes a new chat.
type startup struct {
	// dbPath and provider are known before the database opens.
	dbPath, provider string
	// early holds keys typed before the database opened.
	early []tea.KeyMsg
	// preloaded: the first chat load was started before the program, by Run.
	preloaded bool
	// opening: the next snapshot is a chat opening, at start-up or
	// switched to (a question in it has the focus from the first frame).
	opening bool
	// openErr: the database could not be opened; Run reports it.
	openErr error
	// creating: a message is making a new chat; queued are the messages
	// typed meanwhile, sent to that chat once it has an id.
	creating bool
	queued   []string
}

// release takes the messages queued for the new chat once it was made.
func (s *startup) release() []string {
	q := s.queued
	s.creating, s.queued = false, nil
	return q
}
