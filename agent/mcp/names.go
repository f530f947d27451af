package mcp

import (
	"crypto/sha256"
	"encoding/hex"
)

// maxToolName is the longest tool name every provider accepts (^[a-zA-Z0-9_-]{1,64}$).
const maxToolName = 64

// ToolName is the name the model sees for a server's tool: mcp__<server>__<tool>.
//
// Providers accept only [a-zA-Z0-9_-], at most 64 characters. A name that already fits is
// used as it is. Otherwise every other character becomes "_", the name is cut to fit, and
// an 8-hex-digit hash of the exact server and tool names is appended — so the mapping is
// stable across restarts and does not depend on which other tools exist (a durable step
// recorded under a name finds the same tool after a restart), and two tools whose
// sanitised names agree ("a.b" and "a_b") still get different names.
func ToolName(server, tool string) string {
	exact := "mcp__" + server + "__" + tool
	clean := sanitize(exact)
	if clean == exact && len(exact) <= maxToolName {
		return exact
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "_" + hex.EncodeToString(sum[:4])
	if len(clean) > maxToolName-len(suffix) {
		clean = clean[:maxToolName-len(suffix)]
	}
	return clean + suffix
}

// sanitize replaces each byte outside [a-zA-Z0-9_-] with "_" (a multi-byte character
// becomes one "_" per byte, which keeps the result ASCII and its length predictable).
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			b[i] = '_'
		}
	}
	return string(b)
}
