package forms

import (
	"strings"
	"unicode/utf8"
)

// Untrusted text (from a model or a declaration) must never drive the
// terminal: an ESC sequence could move the cursor, retitle the window, or
// write to the clipboard (OSC 52); a bare CR could overwrite what the user
// reads; bidi overrides could reorder it. The sanitisers remove escape
// sequences whole and replace other controls with a visible U+FFFD, so a
// tampered string still looks tampered.
//
// They also draw every grapheme cluster in a form whose width terminals
// agree on, so that lipgloss's measure (one cluster, one width) is the
// terminal's: an emoji modifier (skin tone) joined to what precedes it is
// dropped (tmux 3.3a draws 👋🏽 in 4 cells, lipgloss and newer terminals
// in 2), and so is the emoji presentation selector U+FE0F (❤️ is 1 cell
// in tmux, 2 elsewhere). The text itself is never changed: only what is
// drawn.

// SanitizeLine neutralises untrusted text for one line: newlines and tabs
// become spaces.
func SanitizeLine(s string) string { return sanitize(s, false, false) }

// SanitizeBlock keeps newlines and tabs and neutralises everything else,
// for multi-line text such as descriptions and textarea values.
func SanitizeBlock(s string) string { return sanitize(s, true, true) }

const replacement = '\uFFFD'

func sanitize(s string, keepNL, keepTab bool) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(-1) // the rune before, in s; -1 at the start
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		joined := prev >= 0x20 && prev != 0x7f
		prev = r
		switch {
		case r == emojiPresentation || isEmojiModifier(r) && joined:
			// Drawn without: see the package comment above.
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(replacement)
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b: // C1 CSI: drop the sequence
			i += size + csiBodyLen(s[i+size:])
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			// C1 OSC, DCS, SOS, PM, APC: drop the sequence.
			i += size + stringBodyLen(s[i+size:])
			continue
		case r == '\n':
			b.WriteString(pick(keepNL, "\n", " "))
		case r == '\t':
			b.WriteString(pick(keepTab, "\t", " "))
		case r == '\r':
			if !keepNL || !strings.HasPrefix(s[i+1:], "\n") {
				b.WriteRune(' ')
			}
		case neutralised(r):
			b.WriteRune(replacement)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean is the fast path: most text has nothing to neutralise.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 {
			return !strings.ContainsFunc(s, needsWork)
		}
	}
	return true
}

func needsWork(r rune) bool {
	return neutralised(r) || r == utf8.RuneError || r == emojiPresentation || isEmojiModifier(r)
}

// neutralised reports a rune no untrusted text may carry to the terminal:
// C0 and C1 controls, DEL, and the invisible controls that reorder or
// break what is shown. It is the one rule: the sanitisers draw such a rune
// as U+FFFD, and values that carry one are refused (controlIn).
func neutralised(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidi(r) || isInvisibleControl(r)
}

// isBidi reports explicit directional formatting characters (Trojan Source).
func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// isInvisibleControl reports the line and paragraph separators (which some
// terminals break lines on), the byte-order mark and the interlinear
// annotation controls. Joiners (U+200C, U+200D) are not among them: emoji
// sequences and many scripts need them.
func isInvisibleControl(r rune) bool {
	return r == 0x2028 || r == 0x2029 || r == 0xfeff || (r >= 0xfff9 && r <= 0xfffb)
}

// controlIn finds a control character a value must not carry: it would
// reach a terminal or a model prompt raw (bidi overrides and other
// invisible controls included: the sanitisers' rule, neutralised). A
// textarea may hold newlines and tabs (and CR before a newline); nothing
// else may.
func controlIn(s string, multiline bool) (rune, bool) {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if neutralised(r) {
			return r, true
		}
	}
	return 0, false
}

const emojiPresentation = '\uFE0F'

// isEmojiModifier reports the skin-tone modifiers U+1F3FB–U+1F3FF.
func isEmojiModifier(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// escapeLen is the byte length of the ESC sequence at the start of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBodyLen(s[2:])
	case ']', 'P', 'X', '^', '_': // string sequences end with BEL or ST
		return 2 + stringBodyLen(s[2:])
	}
	if s[1] >= 0x20 && s[1] <= 0x2f { // intermediates then a final byte (e.g. ESC ( B)
		j := 1
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		return min(j+1, len(s))
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}

// stringBodyLen finds the end of an OSC/DCS/SOS/PM/APC payload.
func stringBodyLen(s string) int {
	for j := 0; j < len(s); j++ {
		switch {
		case s[j] == 0x07:
			return j + 1
		case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
			return j + 2
		case s[j] == 0x1b:
			return j
		}
		if r, size := utf8.DecodeRuneInString(s[j:]); r == 0x9c {
			return j + size
		}
	}
	return len(s)
}

// csiBodyLen finds the end of a CSI's parameters and intermediates, and
// its one final byte.
func csiBodyLen(s string) int {
	for j := 0; j < len(s); j++ {
		if s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
		if s[j] < 0x20 || s[j] > 0x7e {
			return j // malformed: stop before the stray byte
		}
	}
	return len(s)
}
