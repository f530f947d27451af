package main

import (
	"bytes"
	"regexp"
)

// The harness plays the terminal: it answers the queries a program writes
// (the background and foreground colour, the cursor position, the device
// attributes) as an xterm does, and reads the text drawn, without the
// escape sequences, to find the marker.

// answers pairs each query with what an xterm with a black background
// replies. lipgloss asks for the background colour and then the cursor
// position (termenv reads both replies), so a terminal that never answered
// would keep both programs waiting for seconds.
var answers = []struct{ query, reply string }{
	{"\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
	{"\x1b]11;?\a", "\x1b]11;rgb:0000/0000/0000\a"},
	{"\x1b]10;?\x1b\\", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"},
	{"\x1b]10;?\a", "\x1b]10;rgb:ffff/ffff/ffff\a"},
	{"\x1b[6n", "\x1b[1;1R"},
	{"\x1b[c", "\x1b[?62;22c"},
	{"\x1b[0c", "\x1b[?62;22c"},
}

// screen is what a program wrote to its terminal so far.
type screen struct {
	raw     []byte
	scanned int // raw[:scanned] has been looked at for queries
	text    []byte
	texted  int // raw[:texted] is in text
}

// write takes what the program wrote and returns the replies its queries
// ask for, in order.
func (s *screen) write(p []byte) []byte {
	s.raw = append(s.raw, p...)
	var out []byte
	// A query may have been split between reads: look again from far
	// enough back to see all of it, and never answer one twice.
	for {
		first, at := -1, len(s.raw)
		for i, a := range answers {
			if j := bytes.Index(s.raw[s.scanned:], []byte(a.query)); j >= 0 && s.scanned+j < at {
				first, at = i, s.scanned+j
			}
		}
		if first < 0 {
			break
		}
		out = append(out, answers[first].reply...)
		s.scanned = at + len(answers[first].query)
	}
	if keep := len(s.raw) - 8; keep > s.scanned {
		s.scanned = keep // no query is longer than 8 bytes
	}
	s.strip()
	return out
}

// strip appends to text what raw holds past texted, less escape sequences
// (CSI, OSC, DCS and the like, and two-byte escapes); an unfinished
// sequence at the end waits for the next write.
func (s *screen) strip() {
	b := s.raw
	i := s.texted
	for i < len(b) {
		c := b[i]
		if c != 0x1b {
			if c >= 0x20 || c == '\n' {
				s.text = append(s.text, c)
			}
			i++
			continue
		}
		n := escLen(b[i:])
		if n == 0 {
			break // unfinished
		}
		i += n
	}
	s.texted = i
}

// escLen is the length of the escape sequence b starts with, or 0 when b
// ends before it does.
func escLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for j := 2; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				return j + 1
			}
		}
		return 0
	case ']', 'P', 'X', '^', '_': // strings ended by BEL or ST
		for j := 2; j < len(b); j++ {
			if b[j] == '\a' {
				return j + 1
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
		}
		return 0
	case '(', ')', '*', '+', '#', '%': // designate a character set and the like
		if len(b) < 3 {
			return 0
		}
		return 3
	}
	return 2
}

// shows reports whether the text drawn from byte from on matches marker.
func (s *screen) shows(from int, marker *regexp.Regexp) bool {
	return marker.Match(s.text[from:])
}
