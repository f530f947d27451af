package ui

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/ui/dialog"
)

// fakeOpener is a script standing in for xdg-open: it writes the link it
// was given to a file.
func fakeOpener(t *testing.T) (path, got string) {
	t.Helper()
	dir := t.TempDir()
	got = filepath.Join(dir, "opened")
	path = filepath.Join(dir, "xdg-open")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+got+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, got
}

// A server's link to visit is a consent card: the full URL, its host on
// a line of its own, the punycode warning, never opened by itself. o
// hands it to the browser, c copies it through the terminal, d says done
// and the call goes on.
func TestURLConsentCard(t *testing.T) {
	k := newMCPKit(t)
	opener, opened := fakeOpener(t)
	k.m.mcp.opener = opener
	var term bytes.Buffer
	k.m.mcp.term = &term
	sent := k.ask("call fake.link")
	k.load(sent.ChatID)
	if !showing[dialog.URL](k.m) {
		t.Fatalf("no consent card:\n%s", frameOf(k.m))
	}
	f := frameOf(k.m)
	for _, want := range []string{"fake (MCP server) asks you to open a link", "Sign in to continue", fakeURL,
		"host: xn--80ak6aa92e.com", "⚠ the host is punycode (xn--): browsers may show it as “аррӏе.com”",
		"followup has not opened this link"} {
		if !strings.Contains(f, want) {
			t.Errorf("the card does not show %q:\n%s", want, f)
		}
	}
	// Typed for the composer, d and o do nothing to the card.
	k.hit(letter('d'))
	k.hit(letter('o'))
	if k.m.composer.Value() != "do" || !showing[dialog.URL](k.m) {
		t.Fatalf("keys for the composer reached the card (composer %q)", k.m.composer.Value())
	}
	k.m.composer.Reset()
	k.settleFocus()
	if k.m.focus != focusDialog {
		t.Fatal("the card did not take the focus after a pause")
	}
	if _, err := os.Stat(opened); err == nil {
		t.Fatal("the link was opened before the user asked")
	}
	k.hit(letter('o'))
	deadline := time.Now().Add(5 * time.Second)
	for {
		if b, err := os.ReadFile(opened); err == nil && string(b) == fakeURL {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("o did not hand the link to the opener")
		}
		time.Sleep(20 * time.Millisecond)
	}
	k.hit(letter('c'))
	if want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(fakeURL)) + "\a"; term.String() != want {
		t.Fatalf("c wrote %q to the terminal, want %q", term.String(), want)
	}
	k.hit(letter('d'))
	f = frameOf(k.m)
	if showing[dialog.URL](k.m) || !strings.Contains(f, "visit: accept") || !strings.Contains(f, "you said done (xn--80ak6aa92e.com)") {
		t.Fatalf("done did not let the call go on:\n%s", f)
	}
}

// n declines: the server is told so, and the card closes.
func TestURLConsentDecline(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask("call fake.link")
	k.load(sent.ChatID)
	k.settleFocus()
	f := frameOf(k.m)
	if strings.Contains(f, "o open in the browser") || !strings.Contains(f, "xdg-open is not installed") {
		t.Fatalf("the card offers to open a link with no opener:\n%s", f)
	}
	k.hit(letter('n'))
	if f := frameOf(k.m); showing[dialog.URL](k.m) || !strings.Contains(f, "visit: decline") || !strings.Contains(f, "declined by you (xn--80ak6aa92e.com)") {
		t.Fatalf("decline did not reach the server:\n%s", f)
	}
}

// An opener that fails says why in one line.
func TestURLOpenerFailureIsOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "xdg-open")
	os.WriteFile(bad, []byte("#!/bin/sh\necho 'no method available for opening' >&2\necho more >&2\nexit 3\n"), 0o755)
	msg := openLink(bad, fakeURL)().(linkHandedMsg)
	if msg.err == nil || !strings.Contains(msg.err.Error(), "exit status 3: no method available for opening") ||
		strings.Contains(msg.err.Error(), "more") {
		t.Fatalf("error %v", msg.err)
	}
}
