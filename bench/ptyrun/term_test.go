package main

import (
	"regexp"
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
	if re := regexp.MustCompile(`an e.v`); !s.shows(7, re) || s.shows(8, re) {
		t.Fatal("the marker is not looked for from the offset given")
	}
}

// A run types its key once the program reads keys, and counts the key
// only where the marker says: shown elsewhere, or typed into a terminal
// nobody reads raw, the run fails.
func TestOnceTimesTheKeyTakenAndEndsTheProgram(t *testing.T) {
	set := settings{cols: 80, rows: 24, env: environ("xterm-256color"), key: "Z", timeout: 3 * time.Second}
	field := `stty raw -echo; printf '\033[?1049hform\r\n'; k=$(dd bs=1 count=1 2>/dev/null); printf '%s %s' "$PRE" "$k"; exec sleep 30`
	p := program{name: "sh", marker: regexp.MustCompile("> Z"), argv: []string{"env", "PRE=>", "sh", "-c", field}}
	start := time.Now()
	s, err := once(p, set) // a program left running would time out
	if err != nil {
		t.Fatal(err)
	}
	if s.taken <= 0 || s.taken > time.Since(start) || s.cpuAll <= 0 {
		t.Fatalf("taken at %v, CPU %v", s.taken, s.cpuAll)
	}
	p.argv[1] = "PRE=›" // the key lands in another place
	if _, err := once(p, set); err == nil || !strings.Contains(err.Error(), "never showed") {
		t.Fatalf("a key shown elsewhere: %v", err)
	}
	p.argv = []string{"sh", "-c", "printf '\\033[?1049h> Z'; exec sleep 30"} // never reads keys
	if _, err := once(p, set); err == nil || !strings.Contains(err.Error(), "never went raw") {
		t.Fatalf("a program that never reads keys: %v", err)
	}
}
