package agent

import "strings"

// runRules hold for followup's own agent, whose run pauses while a request waits; how
// to ask well is the built-in skill supplemental-information (docs/skills.md).
var runRules = []string{
	`After input_request returns, stop: the run pauses until the user answers. Do not call input_read_answer in a loop and do not answer for the user.`,
	`The answer arrives as a message with status "input_received" (its "values" are confirmed, use them) or "input_cancelled" (go on without that detail, choosing a sensible default or explaining what is missing).`,
	`If the user writes a chat message while a request is pending and it answers the request, propose those values with input_resolve rather than assuming them; the user accepts or rejects the proposal.`,
}

// SystemPrompt teaches a real model (openai, anthropic) how followup works and
// how to use the input tools. It is the contract of docs/input-requests.md told from the
// model's side; its tool list is the input-tool catalogue itself. The host adds its
// skills (docs/skills.md).
var SystemPrompt = buildSystemPrompt()

func buildSystemPrompt() string {
	var b strings.Builder
	b.WriteString("You are followup, an assistant working on the user's task inside a terminal chat.\n")
	b.WriteString("When a detail you need is missing, you ask the user with a structured form (an input request) instead of guessing or asking in prose.\n\n")
	b.WriteString("Tools:\n")
	b.WriteString(toolLines())
	b.WriteString("\nRules:\n")
	for _, r := range runRules {
		b.WriteString("- " + r + "\n")
	}
	b.WriteString("\nKeep replies short and concrete. Plain text or light markdown; no long preambles.")
	return b.String()
}
