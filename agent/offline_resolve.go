package agent

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The demo agent proposes values it read in a chat message with
// input_resolve. Whether the proposal exists is the host's answer (docs/behaviour.md:
// an invalid proposal is never shown as one, and nothing claims it
// exists), so the proposing turn only says what was read; a proposal made
// leaves the run waiting for the user without another turn, and values the
// host refused get one: it says what it could not use and why, and
// proposes whatever else it read.

// resolveCall is one of the demo agent's own input_resolve calls.
type resolveCall struct {
	RequestID string         `json:"requestId"`
	Digest    string         `json:"digest"`
	Values    map[string]any `json:"values"`
}

// resolveResult is what the host answered to input_resolve.
type resolveResult struct {
	OK                   bool `json:"ok"`
	ConfirmationRequired bool `json:"confirmationRequired"`
	Error                struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details struct {
			Problems []struct {
				Path    string `json:"path"`
				Message string `json:"message"`
			} `json:"problems"`
		} `json:"details"`
	} `json:"error"`
}

// proposeTurn calls input_resolve with values for r; what to say waits for
// the host's answer (afterResolve).
func (st *history) proposeTurn(r *asked, vals map[string]any, say string) Message {
	return st.calling(say, "input_resolve", resolveCall{RequestID: r.id, Digest: r.digest, Values: vals})
}

// afterResolve answers the result of the demo agent's own input_resolve;
// ok is false when the tool result is another tool's.
func (st *history) afterResolve(result Message) (Message, bool) {
	call, ok := st.resolves[result.ToolCallID]
	if !ok {
		return Message{}, false
	}
	r := st.find(call.RequestID)
	title := "the question"
	if r != nil {
		title = `"` + r.def.Title + `"`
	}
	var res resolveResult
	json.Unmarshal([]byte(result.Content), &res)
	switch {
	case res.OK && res.ConfirmationRequired:
		return Message{Content: "I read that as an answer to " + title + " — please confirm the proposal."}, true
	case res.OK:
		return Message{Content: "Noted for " + title + "."}, true
	case res.Error.Code != "INPUT_REPLY_INVALID" || len(res.Error.Details.Problems) == 0 || r == nil:
		return Message{Content: fmt.Sprintf("I could not propose that for %s (%s: %s). The form is still open.",
			title, res.Error.Code, res.Error.Message)}, true
	}
	why := map[string]string{}
	for _, p := range res.Error.Details.Problems {
		// "/values/<field>[/…]" names a field; "/values" the whole reply.
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(p.Path, "/values"), "/"), "/")
		if why[name] == "" {
			why[name] = p.Message
		}
	}
	// In the form's order: what it could not use, and what else it read.
	var bad []string
	rest := map[string]any{}
	for _, f := range r.def.Fields {
		v, ok := call.Values[f.Name]
		switch {
		case !ok:
		case why[f.Name] != "":
			bad = append(bad, fmt.Sprintf("%s: %s — %s", f.Name, shownValue(v), strings.TrimSuffix(why[f.Name], ".")))
		default:
			rest[f.Name] = v
		}
	}
	if msg, ok := why[""]; ok && len(bad) == 0 {
		bad = append(bad, strings.TrimSuffix(msg, "."))
	}
	say := fmt.Sprintf("I could not use this for %s: %s.", title, strings.Join(bad, "; "))
	if len(rest) == 0 || len(rest) == len(call.Values) {
		return Message{Content: say + " The form is still open: answer it there, or tell me again."}, true
	}
	return st.proposeTurn(r, rest, say+fmt.Sprintf(" The rest (%s) shows as a proposal if it fits.", r.readValues(rest))), true
}

// readValues lists values read from a message in the form's order, as the
// user typed them: "travelers: 4, start: 2026-05-01".
func (r *asked) readValues(vals map[string]any) string {
	var parts []string
	for _, f := range r.def.Fields {
		if v, ok := vals[f.Name]; ok {
			parts = append(parts, f.Name+": "+shownValue(v))
		}
	}
	return strings.Join(parts, ", ")
}

// shownValue writes a value read from a message the way the user typed it.
func shownValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		return joinAny(x)
	}
	return plainValue(v)
}
