package main

import (
	"strings"
	"testing"
	"time"
)

func TestScreenAnswersQueriesSplitAcrossWrites(t *testing.T) {
	var s screen
	// lipgloss's background query and termenv's cursor query, cut anywhere.
	out := "\x1b]11;?\x1b\\\x1b[6n"
	var replies string
	for i := 0; i < len(out); i += 3 {
		replies += string(s.write([]byte(out[i:min(i+3, len(out))])))
	}
	want := "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[1;1R"
	if replies != want {
		t.Fatalf("replies %q, want %q", replies, want)
	}
	if again := s.write([]byte("x")); len(again) != 0 {
		t.Fatalf("answered again: %q", again)
	}
}

func TestScreenTextLeavesOutEscapes(t *testing.T) {
	var s screen
	for _, part := range []string{"\x1b[?1049h\x1b[H", "\x1b[1;38;2;1;2;3mChoose", "\x1b[0m an \x1b]8;;http://x\x1b\\env", "\x1b]8;;\aironment\x1b(B"} {
		s.write([]byte(part))
	}
	if got := string(s.text); got != "Choose an environment" {
		t.Fatalf("text %q", got)
	}
	if !s.shows("nope|an env") || s.shows("nope|other") {
		t.Fatal("markers separated by | are not each looked for")
	}
}

func TestOnceTimesTheMarkerAndEndsTheProgram(t *testing.T) {
	set := settings{cols: 80, rows: 24, env: environ("xterm-256color", false), timeout: 10 * time.Second, at: t.TempDir() + "/at"}
	p := program{name: "sh", marker: "drawn", argv: []string{"sh", "-c", `printf 'a \033[1mdrawn\033[0m b'; exec sleep 30`}}
	start := time.Now()
	s, err := once(p, set) // a program left running would time out
	if err != nil {
		t.Fatal(err)
	}
	if s.frame <= 0 || s.frame > time.Since(start) {
		t.Fatalf("marker at %v", s.frame)
	}
	p.marker = "never"
	p.argv = []string{"sh", "-c", "printf 'something else'"}
	if _, err := once(p, set); err == nil || !strings.Contains(err.Error(), "something else") {
		t.Fatalf("a program that exits without the marker: %v", err)
	}
}
