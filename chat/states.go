package chat

import "followup/store"

// RunState is where a task stands (docs/behaviour.md).
type RunState string

// Run states.
const (
	RunRunning      RunState = store.RunRunning
	RunWaitingInput RunState = store.RunWaitingInput
	// RunWaitingChildren: the run waits for its sub-agents (docs/behaviour.md).
	RunWaitingChildren RunState = store.RunWaitingChildren
	RunSucceeded       RunState = store.RunSucceeded
	RunFailed          RunState = store.RunFailed
	RunStopped         RunState = store.RunStopped
)

// Active reports a task in progress: running, or waiting for an answer
// or for its sub-agents.
func (s RunState) Active() bool { return !s.Final() && s != "" }

// Final reports a task that has ended: it succeeded, failed or was stopped.
func (s RunState) Final() bool { return store.RunEnded(string(s)) }

// Words says how a task stands, after "the task ": "is running", "is
// waiting for your answer", "succeeded", "failed", "was stopped".
func (s RunState) Words() string {
	switch s {
	case RunRunning, RunWaitingInput, RunWaitingChildren:
		return "is " + s.Phrase()
	case RunStopped:
		return "was " + s.Phrase()
	}
	return s.Phrase()
}

// Phrase says how a task stands on its own, as a status line or a
// sub-agent's row does: "running", "waiting for your answer", "stopped".
func (s RunState) Phrase() string {
	switch s {
	case RunWaitingInput:
		return "waiting for your answer"
	case RunWaitingChildren:
		return "waiting for its sub-agents"
	}
	return string(s)
}

// RequestState is where a question stands.
type RequestState string

// Request states.
const (
	RequestPending   RequestState = store.ReqPending
	RequestAnswered  RequestState = store.ReqAnswered
	RequestCancelled RequestState = store.ReqCancelled
	RequestExpired   RequestState = store.ReqExpired
)

// Open reports a question still waiting for its answer.
func (s RequestState) Open() bool { return s == RequestPending }

// Words says how a question stands, after "the request ": "is waiting
// for its answer", "was answered", "was cancelled", "expired".
func (s RequestState) Words() string {
	switch s {
	case RequestPending:
		return "is waiting for its answer"
	case RequestAnswered, RequestCancelled:
		return "was " + string(s)
	}
	return string(s)
}

// ChatState is whether a chat is in use or archived.
type ChatState string

// Chat states.
const (
	ChatActive   ChatState = store.ChatActive
	ChatArchived ChatState = store.ChatArchived
)

// Archived reports an archived chat: it is read, nothing in it moves.
func (s ChatState) Archived() bool { return s == ChatArchived }
