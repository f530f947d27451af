package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"
)

// entry is an mcpServers entry as written. Unknown keys are ignored, so files written
// for other hosts load as they are.
type entry struct {
	Type        *string
	Command     *string
	Args        []string
	Env         map[string]string
	URL         *string
	Headers     map[string]string
	AutoApprove AutoApprove
	Disabled    bool
	Timeout     *float64
	LogLevel    string
}

// logLevels are the levels a server may be asked to log at.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// decodeEntry reads the known keys one by one, so a wrong type is reported at its own
// JSON Pointer (/args/2, /env/KEY) rather than for the entry as a whole.
func decodeEntry(raw json.RawMessage) (entry, *Problem) {
	var e entry
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return e, &Problem{Reason: "not an object"}
	}
	var args []json.RawMessage
	var env, headers map[string]json.RawMessage
	const str = "must be a string"
	level := "must be one of " + strings.Join(logLevels, ", ")
	for _, k := range []struct {
		key    string
		into   any
		reason string
	}{
		{"type", &e.Type, str}, {"command", &e.Command, str}, {"url", &e.URL, str},
		{"args", &args, "must be a list of strings"},
		{"env", &env, "must be an object of strings"}, {"headers", &headers, "must be an object of strings"},
		{"disabled", &e.Disabled, "must be true or false"},
		{"timeout", &e.Timeout, "must be a number of seconds"},
		{"logLevel", &e.LogLevel, level},
	} {
		v, ok := keys[k.key]
		if ok && string(v) != "null" && json.Unmarshal(v, k.into) != nil {
			return e, &Problem{Pointer: "/" + k.key, Reason: k.reason}
		}
	}
	if v, ok := keys["logLevel"]; ok && string(v) != "null" && !slices.Contains(logLevels, e.LogLevel) {
		return e, &Problem{Pointer: "/logLevel", Reason: level}
	}
	for i, it := range args {
		var s string
		if json.Unmarshal(it, &s) != nil {
			return e, &Problem{Pointer: fmt.Sprintf("/args/%d", i), Reason: str}
		}
		e.Args = append(e.Args, s)
	}
	var p *Problem
	if e.Env, p = stringsOf("/env", env); p != nil {
		return e, p
	}
	if e.Headers, p = stringsOf("/headers", headers); p != nil {
		return e, p
	}
	aa, err := parseAutoApprove(keys["autoApprove"])
	if err != nil {
		return e, &Problem{Pointer: "/autoApprove", Reason: err.Error()}
	}
	e.AutoApprove = aa
	return e, nil
}

// stringsOf decodes an object's values as strings, naming a value that is not one.
func stringsOf(ptr string, m map[string]json.RawMessage) (map[string]string, *Problem) {
	out := make(map[string]string, len(m))
	for k, item := range m {
		var s string
		if json.Unmarshal(item, &s) != nil {
			return nil, &Problem{Pointer: ptr + "/" + pointerToken(k), Reason: "must be a string"}
		}
		out[k] = s
	}
	return out, nil
}

// parseServer checks one entry; a Problem's Pointer is relative to the entry.
func parseServer(name string, raw json.RawMessage, lookup Lookup) (ServerConfig, *Problem) {
	if strings.TrimSpace(name) == "" {
		return ServerConfig{}, &Problem{Reason: "a server needs a name"}
	}
	if strings.Contains(name, "__") || strings.HasSuffix(name, "_") {
		// One tool name, one server: mcp__a__b__c must not be both a's tool b__c and a__b's c.
		return ServerConfig{}, &Problem{Reason: `a server's name may not contain "__" or end in "_" (its tools are named mcp__<server>__<tool>)`}
	}
	e, p := decodeEntry(raw)
	if p != nil {
		return ServerConfig{}, p
	}
	sc := ServerConfig{Name: name, Timeout: defaultTimeout, Disabled: e.Disabled, AutoApprove: e.AutoApprove, LogLevel: e.LogLevel}
	var secrets [][2]string
	lookup = recording(lookup, &secrets)
	switch {
	case e.Type != nil:
		sc.Type = *e.Type
	case e.URL != nil && e.Command == nil:
		sc.Type = TypeHTTP // a url and no command: what every host means by it
	default:
		sc.Type = TypeStdio
	}
	if e.Timeout != nil {
		t := time.Duration(*e.Timeout * float64(time.Second))
		if t <= 0 || t > maxTimeout {
			return ServerConfig{}, &Problem{Pointer: "/timeout",
				Reason: fmt.Sprintf("must be more than 0 and at most %d seconds", int(maxTimeout/time.Second))}
		}
		sc.Timeout = t
	}
	switch sc.Type {
	case TypeStdio:
		p = stdioEntry(&sc, e, lookup)
	case TypeHTTP:
		p = httpEntry(&sc, e, lookup)
	case "sse":
		p = &Problem{Pointer: "/type", Reason: `"sse" is not supported; use "http" (streamable HTTP)`}
	default:
		p = &Problem{Pointer: "/type", Reason: fmt.Sprintf(`%q is not a server type: use "stdio" or "http"`, sc.Type)}
	}
	if p != nil {
		return ServerConfig{}, p
	}
	sc.Secrets = newSecrets(secrets)
	return sc, nil
}

func stdioEntry(sc *ServerConfig, e entry, lookup Lookup) *Problem {
	if e.Command == nil || strings.TrimSpace(*e.Command) == "" {
		return &Problem{Pointer: "/command", Reason: "a stdio server needs a command"}
	}
	var err error
	if sc.Command, err = expand(*e.Command, lookup); err != nil {
		return &Problem{Pointer: "/command", Reason: err.Error()}
	}
	shown := []string{*e.Command}
	for i, a := range e.Args {
		v, err := expand(a, lookup)
		if err != nil {
			return &Problem{Pointer: fmt.Sprintf("/args/%d", i), Reason: err.Error()}
		}
		sc.Args = append(sc.Args, v)
		shown = append(shown, a)
	}
	sc.Shown = strings.Join(shown, " ")
	var p *Problem
	sc.Env, p = expandMap("/env", e.Env, lookup)
	return p
}

func httpEntry(sc *ServerConfig, e entry, lookup Lookup) *Problem {
	if e.URL == nil || strings.TrimSpace(*e.URL) == "" {
		return &Problem{Pointer: "/url", Reason: "an http server needs a url"}
	}
	v, err := expand(*e.URL, lookup)
	if err != nil {
		return &Problem{Pointer: "/url", Reason: err.Error()}
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &Problem{Pointer: "/url", Reason: fmt.Sprintf("%q is not an http or https URL", *e.URL)}
	}
	sc.URL, sc.Shown = v, *e.URL
	var p *Problem
	if sc.Headers, p = expandMap("/headers", e.Headers, lookup); p != nil {
		return p
	}
	for k := range sc.Headers {
		if !httpguts.ValidHeaderFieldName(k) {
			return &Problem{Pointer: "/headers/" + pointerToken(k), Reason: "not a valid header name"}
		}
	}
	return nil
}

func expandMap(ptr string, m map[string]string, lookup Lookup) (map[string]string, *Problem) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		x, err := expand(v, lookup)
		if err != nil {
			return nil, &Problem{Pointer: ptr + "/" + pointerToken(k), Reason: err.Error()}
		}
		out[k] = x
	}
	return out, nil
}

func parseAutoApprove(raw json.RawMessage) (AutoApprove, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "false" {
		return AutoApprove{}, nil
	}
	if string(raw) == "true" {
		return AutoApprove{All: true}, nil
	}
	var tools []string
	if err := json.Unmarshal(raw, &tools); err != nil {
		return AutoApprove{}, fmt.Errorf("must be true or a list of tool names")
	}
	return AutoApprove{Tools: tools}, nil
}

// pointerToken escapes one JSON Pointer reference token (RFC 6901).
func pointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
