//go:build race

package chat_test

// raceEnabled: children built with the race detector start and query
// several times slower, so the process tests do fewer rounds.
const raceEnabled = true
