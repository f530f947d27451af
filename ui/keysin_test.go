package ui

import (
	"os"
	"strings"
	"testing"
)

// A read never ends inside a character: the bytes of one that a write
// split are held back and start the next read, and nothing is lost.
func TestKeysAreReadInWholeCharacters(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	in := &wholeChars{File: r}
	read := func() string {
		buf := make([]byte, 256)
		n, err := in.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n])
	}
	text := "a€漢😀"
	b := []byte(text)
	w.Write(b[:2]) // "a" and the first byte of "€"
	if got := read(); got != "a" {
		t.Fatalf("read %q, want %q: a split character was passed on", got, "a")
	}
	w.Write(b[2:6]) // the rest of "€", the first two bytes of "漢"
	if got := read(); got != "€" {
		t.Fatalf("read %q, want %q", got, "€")
	}
	w.Write(b[6:]) // the rest
	if got := read(); got != "漢😀" {
		t.Fatalf("read %q, want %q", got, "漢😀")
	}
	long := strings.Repeat("漢", 90) // 270 bytes: more than a read of 256
	w.Write([]byte(long))
	var got strings.Builder
	for got.Len() < len(long) {
		got.WriteString(read())
	}
	if got.String() != long {
		t.Fatalf("a long burst came as %d bytes, want %d unchanged", got.Len(), len(long))
	}
}
