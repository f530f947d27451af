package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Offline is the deterministic demo agent (docs/behaviour.md). It needs no key and
// no network, answers the same history with the same turn, and drives every
// input feature through the same tools a real model would use.
type Offline struct{}

// Name implements Provider.
func (Offline) Name() string { return "offline" }

// Complete implements Provider.
func (o Offline) Complete(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	msg := o.turn(req.Messages)
	if req.MaxTokens > 0 { // an MCP server's sampling request: no tools, no history
		msg = Message{Content: sampledReply(req.Messages)}
	}
	msg.Role = RoleAssistant
	if req.OnText != nil && msg.Content != "" {
		for _, w := range strings.SplitAfter(msg.Content, " ") {
			req.OnText(w)
		}
	}
	return Response{Message: msg}, nil
}

func (o Offline) turn(h []Message) Message {
	msg := o.reply(h)
	if said := resultsBeforeMessages(h); said != "" {
		msg.Content = strings.TrimSpace(said + "\n\n" + msg.Content)
	}
	return msg
}

// resultsBeforeMessages is what the demo agent says about the results of
// its MCP calls that came back while the user wrote: a message sent during
// a call follows its result in the history, and the turn that answers the
// message must still tell what the call came to.
func resultsBeforeMessages(h []Message) string {
	j := len(h)
	for j > 0 && h[j-1].Role == RoleUser {
		j--
	}
	if j == len(h) {
		return "" // the last message is a result: the usual turn tells it
	}
	i := j
	for i > 0 && h[i-1].Role == RoleTool {
		i--
	}
	var said []string
	for _, m := range h[i:j] {
		if reply, ok := mcpReply(m); ok {
			said = append(said, reply)
		}
	}
	return strings.Join(said, "\n\n")
}

func (o Offline) reply(h []Message) Message {
	if len(h) == 0 {
		return Message{Content: "Hello! Tell me what to work on."}
	}
	st := readHistory(h)
	last := h[len(h)-1]
	if last.Role == RoleTool {
		if reply, ok := mcpReply(last); ok {
			return Message{Content: reply}
		}
		if msg, ok := delegateSummary(h); ok {
			return msg
		}
	}
	if last.Role == RoleUser {
		if msg, ok := callTurn(unanswered(h), st); ok {
			return msg
		}
	}
	if res, ok := parseStatus(last.Content); ok && (last.Role == RoleUser || last.Role == RoleTool) {
		switch res.Status {
		case "input_received":
			reply := st.finish(res)
			if st.pending() != nil {
				reply = strings.TrimSuffix(reply, " Done.") + st.stillOpen()
			}
			return Message{Content: reply}
		case "input_cancelled":
			return Message{Content: "Understood — I'll go on without that detail." + st.stillOpen()}
		case "input_expired":
			return Message{Content: "That question expired, so I'll go on without that detail." + st.stillOpen()}
		case "skill_changed":
			return skillChanged(res, st)
		}
	}
	if last.Role == RoleTool {
		if msg, ok := afterActivate(last, st); ok {
			return msg
		}
		if msg, ok := st.afterResolve(last); ok {
			return msg
		}
		return Message{Content: toolSummary(last)}
	}
	if last.Role != RoleUser {
		return Message{Content: "Done."}
	}
	// Messages sent before the agent answered are read together.
	text := unanswered(h)
	if msg, ok := attachedTurn(h); ok {
		return msg
	}
	if asksWhatItCanDo(text) {
		if st.pending() != nil {
			return Message{Content: DemoGuide + st.stillOpen()}
		}
		return Message{Content: DemoGuide}
	}
	if pend := st.pending(); pend != nil {
		for _, r := range st.open() {
			if vals := r.match(text); len(vals) > 0 {
				// Only the host's answer says whether the proposal exists,
				// and after a proposal is made the run waits without another
				// turn: what is said now must hold either way.
				return st.proposeTurn(r, vals, fmt.Sprintf("I read %s for \"%s\"; if it fits, it shows as a proposal.",
					r.readValues(vals), r.def.Title))
			}
		}
		// A new, independent task while one question is open: ask that
		// too, so both wait side by side.
		if decl, ok := taskRequest(text); ok && !st.askedKey(decl.RequestKey) {
			return st.calling("I'll ask about that too — both questions are open in the form below; answer them in any order.",
				"input_request", decl)
		}
		return Message{Content: fmt.Sprintf("I still need \"%s\" to go on. Answer the form below, or tell me, for example, `%s`.",
			pend.def.Title, pend.example())}
	}
	if msg, ok := skillTurn(text, st); ok {
		return msg
	}
	if msg, ok := delegateTurn(text, st); ok {
		return msg
	}
	decl := demoRequest(text)
	return st.calling(decl.intro, "input_request", decl)
}

// toolSummary answers a tool result that did not pause the run.
func toolSummary(m Message) string {
	var r struct {
		OK    bool `json:"ok"`
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(m.Content), &r) == nil && !r.OK && r.Error.Code != "" {
		return fmt.Sprintf("That did not work (%s: %s). I'll stop here.", r.Error.Code, r.Error.Message)
	}
	return "Done."
}

type statusResult struct {
	Status    string         `json:"status"`
	RequestID string         `json:"requestId"`
	Values    map[string]any `json:"values"`
	Skill     string         `json:"skill"`
	Now       any            `json:"now"`
}

func parseStatus(s string) (statusResult, bool) {
	var r statusResult
	if !strings.HasPrefix(strings.TrimSpace(s), "{") || json.Unmarshal([]byte(s), &r) != nil {
		return r, false
	}
	return r, r.Status != ""
}
