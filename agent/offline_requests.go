package agent

import (
	_ "embed"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// demoDecl is an input_request the demo agent sends; intro is what it says
// as it asks.
type demoDecl struct {
	RequestKey string         `json:"requestKey"`
	Reason     string         `json:"reason"`
	Source     map[string]any `json:"source"`
	Prefill    map[string]any `json:"prefill,omitempty"`
	intro      string
}

// demoRequests are the demo's questions (docs/behaviour.md), each asked
// for a message holding one of its match words; the last is the fallback.
//
//go:embed offline_requests.json
var demoRequestsJSON []byte

var demoRequests = func() (out []struct {
	demoDecl
	Match []string `json:"match"`
	Intro string   `json:"intro"`
}) {
	if err := json.Unmarshal(demoRequestsJSON, &out); err != nil {
		panic(err)
	}
	return out
}()

// taskRequest is the question of a message that names a demo task
// (deploy, trip, travel); ok is false for anything else.
func taskRequest(text string) (demoDecl, bool) {
	d := demoRequest(text)
	return d, d.RequestKey != "task-details"
}

// demoRequest picks the demo's question for a user's message.
func demoRequest(text string) demoDecl {
	low := strings.ToLower(text)
	for _, r := range demoRequests {
		if len(r.Match) == 0 || slices.ContainsFunc(r.Match, func(w string) bool { return strings.Contains(low, w) }) {
			r.intro = r.Intro
			if place := placeIn(text); place != "" && len(r.Prefill) > 0 {
				// The place the message names is the suggestion, not the demo's own.
				r.Prefill = maps.Clone(r.Prefill)
				for _, name := range []string{"destination", "city"} {
					if _, ok := r.Prefill[name]; ok {
						r.Prefill[name] = place
					}
				}
			}
			return r.demoDecl
		}
	}
	panic("offline_requests.json has no fallback")
}

// placeIn is the place a message names after "to" or "in", written with a
// capital ("Plan a trip to Lisbon": Lisbon); "" when it names none.
func placeIn(text string) string {
	words := strings.Fields(text)
	for i := 0; i+1 < len(words); i++ {
		if w := strings.ToLower(words[i]); w != "to" && w != "in" {
			continue
		}
		place := strings.TrimRight(words[i+1], ".,;:!?")
		if r, _ := utf8.DecodeRuneInString(place); unicode.IsUpper(r) {
			return place
		}
	}
	return ""
}

// DemoGuide is what the offline demo agent can show, in the words a newcomer
// reads: the screen's welcome and the agent's answer to "what can you do?"
// both say it (docs/behaviour.md).
const DemoGuide = "I am the offline demo agent: no model key needed, the same answers every time. Try:\n" +
	"- “Check deployment”: I ask which environment, in a form above the composer.\n" +
	"- “Plan a trip”: a longer form with a suggestion filled in, a review before it is sent, and a draft kept if you quit.\n" +
	"- While a form waits, type an answer here (“staging”): I propose it, and you confirm before it replaces anything.\n" +
	"- Ask for both, one after the other: two questions wait side by side; answer them in any order.\n" +
	"- “Plan a team offsite”: two sub-agents, venue and travel, each ask you their own form; I sum up what they found.\n" +
	"- `call SERVER.TOOL {\"arg\": \"value\"}`: a tool of an MCP server in your configuration (`followup mcp list`).\n" +
	"- `followup mcp serve`: other agents (Claude Code, Codex, any MCP client) ask you here."

// asksWhatItCanDo reports whether a message asks what the demo can do
// rather than naming a task.
func asksWhatItCanDo(text string) bool {
	if _, task := taskRequest(text); task {
		return false
	}
	low := strings.Trim(strings.ToLower(strings.TrimSpace(text)), "?!. ")
	return slices.Contains([]string{"what can you do", "help", "demo", "demos", "what do you do", "what can i do", "what can i try"}, low)
}
