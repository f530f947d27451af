package ui

import (
	"os"
	"unicode/utf8"
)

// wholeChars reads keys from a terminal and never ends a read inside a
// character. Bubble Tea v1.3.10 decodes each read on its own and drops a
// character whose bytes a read splits — text that arrives in one burst
// longer than its 256-byte buffer (a paste without bracketed paste, keys
// sent by a program) lost a character at the split. The bytes of a split
// character are held back and start the next read. It is still the
// terminal's file (Fd, Name), so Bubble Tea can wait on it and cancel
// the wait.
type wholeChars struct {
	*os.File
	held []byte
}

func (w *wholeChars) Read(p []byte) (int, error) {
	for {
		n := copy(p, w.held)
		if n < len(w.held) {
			w.held = w.held[n:]
			return n, nil
		}
		w.held = w.held[:0]
		m, err := w.File.Read(p[n:])
		n += m
		tail := splitTail(p[:n])
		if err != nil || tail == 0 {
			return n, err
		}
		w.held = append(w.held, p[n-tail:n]...)
		if n > tail {
			return n - tail, nil
		}
		// Only the start of a character came: its rest follows at once.
	}
}

// splitTail is how many bytes at the end of b begin a character whose
// other bytes have not come yet (0 when b ends on a whole one).
func splitTail(b []byte) int {
	for i := 1; i <= min(len(b), utf8.UTFMax-1); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return 0 // ASCII: whole
		}
		if c >= 0xC0 { // a character's first byte
			need := 2
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			}
			if i < need {
				return i
			}
			return 0
		}
	}
	return 0
}
