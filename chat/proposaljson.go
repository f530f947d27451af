package chat

import (
	"encoding/json"
	"strings"

	"followup/store"
)

// The pending list carries the proposals waiting on each request as
// ProposalViews, which proposalView builds by decoding the stored payload
// (values, a whole form definition, prefill) for json.Marshal to encode it
// again. `pending --json` lists every waiting proposal, and that round trip
// was most of what it spent on them. The payloads are written by this
// package with json.Marshal, so their parts are already what the round
// trip gives back: proposalsJSON copies them as they are, and takes the
// round trip for any payload it cannot vouch for.

// proposalsJSON is mustJSON of ps's ProposalViews, byte for byte.
func proposalsJSON(ps []store.Proposal) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		if !writeProposalJSON(&b, p) {
			b.WriteString(mustJSON(proposalView(p)))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// writeProposalJSON writes p's view from its payload's parts, or writes
// nothing and reports false when the payload is not as json.Marshal writes
// one (then only the round trip says what the view is).
func writeProposalJSON(b *strings.Builder, p store.Proposal) bool {
	parts, ok := payloadParts(p.Payload)
	if !ok {
		return false
	}
	head := [...]struct{ key, value string }{
		{"proposalId", p.ID}, {"requestId", p.RequestID}, {"kind", p.Kind},
		{"state", p.State}, {"baseDigest", p.BaseDigest},
	}
	for _, h := range head {
		if !plain(h.value) {
			return false
		}
	}
	for i, h := range head {
		if i == 0 {
			b.WriteString(`{"`)
		} else {
			b.WriteString(`,"`)
		}
		b.WriteString(h.key)
		b.WriteString(`":"`)
		b.WriteString(h.value)
		b.WriteByte('"')
	}
	// ProposalView's omitempty parts: an empty or null one is left out.
	for i, v := range parts {
		if v != "" && v != "null" && v != "{}" {
			b.WriteString(`,"`)
			b.WriteString(partNames[i])
			b.WriteString(`":`)
			b.WriteString(v)
		}
	}
	b.WriteByte('}')
	return true
}

// plain reports whether s is written in JSON as it is, between quotes, by
// json.Marshal: ids, kinds, states and digests are.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// partNames are the payload's parts a ProposalView shows, in its order.
var partNames = [...]string{"values", "definition", "prefill"}

// payloadParts splits a stored payload into its values, definition and
// prefill, as they are written in it. It vouches only for what a round
// trip through their Go types gives back unchanged: valid, compact JSON
// (as json.Marshal writes it), an object with each part at most once and
// each an object or null (a definition as only this package writes one,
// encoded from a forms.Definition), and no number of 16 digits or more (an
// integer beyond 2^53 comes back rounded through float64). Anything else
// reports false.
func payloadParts(s string) (parts [3]string, ok bool) {
	if len(s) < 2 || s[0] != '{' || !json.Valid([]byte(s)) {
		return parts, false
	}
	if s == "{}" {
		return parts, true
	}
	for i := 1; ; {
		end, ok := skipString(s, i)
		if !ok || end >= len(s) || s[end] != ':' {
			return parts, false
		}
		key, start := s[i+1:end-1], end+1
		if end, ok = skipValue(s, start); !ok || end >= len(s) {
			return parts, false
		}
		k, ok := partIndex(key)
		if !ok {
			return parts, false
		}
		if k >= 0 {
			v := s[start:end]
			if parts[k] != "" || v[0] != '{' && v != "null" {
				return parts, false
			}
			parts[k] = v
		}
		switch s[end] {
		case ',':
			i = end + 1
		case '}':
			return parts, end+1 == len(s)
		default:
			return parts, false
		}
	}
}

// partIndex is the index of key in partNames, or -1 for a key the view
// does not show. A key the decoder would take for a part but that is not
// its name as written (encoding/json matches names case-insensitively, and
// unescapes them) reports false.
func partIndex(key string) (int, bool) {
	if strings.IndexByte(key, '\\') >= 0 {
		return 0, false
	}
	for i, name := range partNames {
		if strings.EqualFold(key, name) {
			return i, key == name
		}
	}
	return -1, true
}

// skipString returns the index after the JSON string that starts at i.
func skipString(s string, i int) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the JSON value that starts at i, in a
// payload already known to be valid JSON; whitespace between tokens and
// long numbers (see payloadParts) report false.
func skipValue(s string, i int) (int, bool) {
	depth := 0
	for j := i; j < len(s); {
		switch c := s[j]; {
		case c == '"':
			end, ok := skipString(s, j)
			if !ok {
				return 0, false
			}
			j = end
		case c == '{' || c == '[':
			depth++
			j++
		case c == '}' || c == ']':
			depth--
			j++
		case c == ',' || c == ':':
			j++
		case c == '-' || '0' <= c && c <= '9':
			digits := 0
			for ; j < len(s) && strings.IndexByte("+-.eE0123456789", s[j]) >= 0; j++ {
				if '0' <= s[j] && s[j] <= '9' {
					digits++
				}
			}
			if digits >= 16 {
				return 0, false
			}
		case 'a' <= c && c <= 'z': // true, false, null
			for j < len(s) && 'a' <= s[j] && s[j] <= 'z' {
				j++
			}
		default:
			return 0, false
		}
		if depth < 0 {
			return 0, false
		}
		if depth == 0 {
			return j, true
		}
	}
	return 0, false
}
