package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"followup/forms"
)

type demoRequestArgs struct {
	RequestKey string `json:"requestKey"`
	Source     struct {
		Template string `json:"template"`
	} `json:"source"`
}

// asked is one request the demo agent opened in this run.
type asked struct {
	key    string
	id     string
	digest string
	def    forms.Definition
	closed bool
}

type history struct {
	asked    []*asked
	resolves map[string]resolveCall // the agent's input_resolve calls, by call id
	turns    int
}

func readHistory(h []Message) *history {
	st := &history{resolves: map[string]resolveCall{}}
	byCall := map[string]*asked{}
	templates := map[string]forms.Definition{} // the forms of the skills activated
	for _, m := range h {
		switch m.Role {
		case RoleAssistant:
			st.turns++
			for _, c := range m.ToolCalls {
				if c.Name == "input_resolve" {
					var rc resolveCall
					if json.Unmarshal(c.Arguments, &rc) == nil {
						st.resolves[c.ID] = rc
					}
				}
				if c.Name != "input_request" {
					continue
				}
				var a demoRequestArgs
				if json.Unmarshal(c.Arguments, &a) == nil {
					r := &asked{key: a.RequestKey, def: templates[a.Source.Template]}
					if a.Source.Template == "" {
						// Read as a declaration: an option may be a bare string.
						if decl, _ := forms.ParseDeclaration(c.Arguments, nil); decl != nil {
							r.def = decl.Definition
						}
					}
					byCall[c.ID] = r
					st.asked = append(st.asked, r)
				}
			}
		case RoleTool:
			var a activated
			if json.Unmarshal([]byte(m.Content), &a) == nil {
				for _, f := range a.Forms {
					templates[f.Template] = f.Definition
				}
			}
			if r := byCall[m.ToolCallID]; r != nil {
				var res struct {
					OK        bool   `json:"ok"`
					RequestID string `json:"requestId"`
					Digest    string `json:"digest"`
					State     string `json:"state"`
					Status    string `json:"status"`
				}
				json.Unmarshal([]byte(m.Content), &res)
				r.id, r.digest = res.RequestID, res.Digest
				r.closed = !res.OK || (res.State != "" && res.State != "pending") || res.Status == "input_received"
			}
		case RoleUser:
			if res, ok := parseStatus(m.Content); ok {
				for _, r := range st.asked {
					if r.id == res.RequestID {
						r.closed = true
					}
				}
			}
		}
	}
	return st
}

func (st *history) nextCallID() string { return fmt.Sprintf("call_%d", st.turns+1) }

// calling is a turn that says say and makes one call of tool with args
// (JSON as it is, anything else marshalled).
func (st *history) calling(say, tool string, args any) Message {
	raw, ok := args.(json.RawMessage)
	if !ok {
		raw, _ = json.Marshal(args)
	}
	return Message{Content: say, ToolCalls: []ToolCall{{ID: st.nextCallID(), Name: tool, Arguments: raw}}}
}

// pending is the newest request still waiting for the user.
func (st *history) pending() *asked {
	if open := st.open(); len(open) > 0 {
		return open[0]
	}
	return nil
}

// open lists the requests still waiting for the user, newest first.
func (st *history) open() []*asked {
	var out []*asked
	for i := len(st.asked) - 1; i >= 0; i-- {
		if r := st.asked[i]; !r.closed && r.id != "" {
			out = append(out, r)
		}
	}
	return out
}

// stillOpen tells what the run still waits for, or that it is done.
func (st *history) stillOpen() string {
	if r := st.pending(); r != nil {
		return fmt.Sprintf(" I still need \"%s\".", r.def.Title)
	}
	return " Done."
}

// unanswered is the text of the user's messages since the agent's last
// turn, in order.
func unanswered(h []Message) string {
	i := len(h)
	for i > 0 && h[i-1].Role == RoleUser {
		if _, ok := parseStatus(h[i-1].Content); ok {
			break
		}
		i--
	}
	parts := make([]string, 0, len(h)-i)
	for _, m := range h[i:] {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

// askedKey reports whether this run already asked requestKey.
func (st *history) askedKey(key string) bool {
	return slices.ContainsFunc(st.asked, func(r *asked) bool { return r.key == key })
}

func (st *history) find(id string) *asked {
	if i := slices.IndexFunc(st.asked, func(r *asked) bool { return r.id == id }); i >= 0 {
		return st.asked[i]
	}
	return nil
}

// finish is the closing reply once a request was answered.
func (st *history) finish(res statusResult) string {
	key := ""
	if r := st.find(res.RequestID); r != nil {
		key = r.key
	}
	v := func(name string) string { return plainValue(res.Values[name]) }
	switch key {
	case "deploy-environment":
		return fmt.Sprintf("Deploying to **%s**. The deployment checks passed and the release is on its way.", v("environment"))
	case "release-checklist:checklist":
		s := fmt.Sprintf("Release plan: **%s** on the %s channel; changelog %s, tests %s.", v("version"), v("channel"), yesNo(res.Values["changelog"]), yesNo(res.Values["tests"]))
		if res.Values["tests"] != true {
			s += " The release waits until the tests pass."
		}
		return s
	case "travel-plan":
		s := fmt.Sprintf("Here is your itinerary: **%s** from %s for %s, by %s.", v("destination"), v("start"), counted(res.Values["travelers"], "traveller", "travellers"), v("transport"))
		if in, ok := res.Values["interests"].([]any); ok && len(in) > 0 {
			s += fmt.Sprintf(" Each day mixes in %s.", joinAny(in))
		}
		if b, ok := res.Values["budget"]; ok {
			s += " Planned within a budget of " + plainValue(b) + "."
		}
		return s
	case "venue":
		return fmt.Sprintf("A venue in **%s** for %s is booked.", v("city"), counted(res.Values["people"], "person", "people"))
	default:
		return fmt.Sprintf("Thanks — working on: %s. Done.", v("details"))
	}
}

func yesNo(v any) string {
	if v == true {
		return "done"
	}
	return "not done"
}

// counted writes a number with the word that agrees with it: "1 traveller",
// "3 travellers".
func counted(n any, one, many string) string {
	if f, ok := n.(float64); ok && f == 1 {
		return "1 " + one
	}
	return plainValue(n) + " " + many
}

// plainValue writes a value as a person would: numbers without exponents.
func plainValue(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func joinAny(xs []any) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = plainValue(x)
	}
	return strings.Join(parts, ", ")
}

// fieldValue is compiled on first use: its bounded repetition makes a large
// program, and most processes never read a chat message as an answer.
var fieldValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b([A-Za-z][A-Za-z0-9_]{0,63})\s*[:=]\s*([^,;\n]+)`)
})

// match reads values for the request from a chat message: "field: value"
// pairs, or a word that names one of a choice field's options.
func (r *asked) match(text string) map[string]any {
	vals := map[string]any{}
	byName := map[string]forms.Field{}
	for _, f := range r.def.Fields {
		byName[strings.ToLower(f.Name)] = f
	}
	for _, m := range fieldValue().FindAllStringSubmatch(text, -1) {
		if f, ok := byName[strings.ToLower(m[1])]; ok {
			vals[f.Name] = typed(f, strings.TrimSpace(m[2]))
		}
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for _, f := range r.def.Fields {
		if f.Type != "select" || vals[f.Name] != nil {
			continue
		}
		for _, o := range f.Options {
			ov := o.Value
			for _, w := range words {
				if w == strings.ToLower(ov) {
					vals[f.Name] = ov
				}
			}
		}
	}
	return vals
}

func typed(f forms.Field, s string) any {
	switch f.Type {
	case "integer", "number":
		var n json.Number = json.Number(s)
		if _, err := n.Float64(); err == nil {
			return n
		}
	case "multiselect":
		var out []string
		for _, p := range strings.Split(s, "+") {
			out = append(out, strings.TrimSpace(p))
		}
		sort.Strings(out)
		return out
	case "select":
		for _, o := range f.Options {
			if strings.EqualFold(o.Value, s) {
				return o.Value
			}
		}
	}
	return s
}

// example is a hint of how to answer in the chat.
func (r *asked) example() string {
	for _, f := range r.def.Fields {
		if f.Type == "select" && len(f.Options) > 0 {
			return "use " + f.Options[len(f.Options)-1].Value
		}
	}
	if len(r.def.Fields) > 0 {
		return r.def.Fields[0].Name + ": …"
	}
	return "field: value"
}
