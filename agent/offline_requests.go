package agent

import "strings"

// demoDecl is an input_request the demo agent sends; intro is what it says
// as it asks.
type demoDecl struct {
	RequestKey string         `json:"requestKey"`
	Reason     string         `json:"reason"`
	Source     map[string]any `json:"source"`
	Prefill    map[string]any `json:"prefill,omitempty"`
	intro      string
}

func dynamic(def map[string]any) map[string]any {
	return map[string]any{"kind": "dynamic", "definition": def}
}

func field(name, typ, label string, required bool, extra ...any) map[string]any {
	f := map[string]any{"name": name, "type": typ, "label": label, "required": required}
	for i := 0; i+1 < len(extra); i += 2 {
		f[extra[i].(string)] = extra[i+1]
	}
	return f
}

// taskRequest is the question of a message that names a demo task
// (deploy, trip, travel); ok is false for anything else.
func taskRequest(text string) (demoDecl, bool) {
	d := demoRequest(text)
	return d, d.RequestKey != "task-details"
}

// demoRequest picks the demo's question for a user's message (docs/behaviour.md).
func demoRequest(text string) demoDecl {
	low := strings.ToLower(text)
	switch {
	case strings.Contains(low, "deploy"):
		return demoDecl{
			RequestKey: "deploy-environment",
			Reason:     "The deployment needs a target environment",
			Source: dynamic(map[string]any{
				"title":  "Choose an environment",
				"fields": []any{field("environment", "select", "Environment", true, "options", []string{"production", "staging"})},
			}),
			intro: "I can deploy that. Which environment should it go to?",
		}
	case strings.Contains(low, "trip") || strings.Contains(low, "travel"):
		return demoDecl{
			RequestKey: "travel-plan",
			Reason:     "A destination and dates are needed to prepare the itinerary",
			Source: dynamic(map[string]any{
				"title":       "Plan the trip",
				"description": "A few details so the itinerary fits.",
				"fields": []any{
					field("destination", "text", "Destination", true),
					field("start", "text", "Start date", true, "format", "date"),
					field("travelers", "integer", "Travellers", true, "min", 1, "max", 12),
					field("budget", "number", "Budget", false, "min", 0),
					field("transport", "select", "Transport", true, "options", []string{"train", "plane", "car"}),
					field("interests", "multiselect", "Interests", false, "options", []string{"food", "museums", "hiking"}),
					field("notes", "textarea", "Notes", false),
				},
			}),
			Prefill: map[string]any{"destination": "Shanghai"},
			intro:   "Happy to plan the trip. I need a few details first.",
		}
	case strings.Contains(low, "venue"):
		return demoDecl{
			RequestKey: "venue",
			Reason:     "The venue depends on the place and the size of the team",
			Source: dynamic(map[string]any{
				"title": "Choose a venue",
				"fields": []any{field("city", "text", "City", true),
					field("people", "integer", "People", true, "min", 2, "max", 200)},
			}),
			Prefill: map[string]any{"city": "Lisbon"},
			intro:   "I'm looking for a venue. Where, and for how many people?",
		}
	default:
		return demoDecl{
			RequestKey: "task-details",
			Reason:     "The task needs more detail",
			Source: dynamic(map[string]any{
				"title":  "What should I work on?",
				"fields": []any{field("details", "text", "What should I work on?", true)},
			}),
			intro: "Tell me a little more so I can start.",
		}
	}
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
	for _, q := range []string{"what can you do", "help", "demo", "demos", "what do you do", "what can i do", "what can i try"} {
		if low == q {
			return true
		}
	}
	return false
}
