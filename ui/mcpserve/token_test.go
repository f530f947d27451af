package mcpserve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The token is made on first use, private to the user, and the same on
// every later start; a file others may read, a FIFO or an empty file is
// refused in words.
func TestLoadToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "followup", TokenFileName)
	tok, err := LoadToken(path)
	if err != nil || len(tok) < 20 {
		t.Fatalf("first use: %q, %v", tok, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", st.Mode(), err)
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Errorf("its folder: %v", st.Mode())
	}
	if again, err := LoadToken(path); again != tok || err != nil {
		t.Errorf("second use: %q, %v; want %q", again, err, tok)
	}
	if other, _ := LoadToken(filepath.Join(dir, "other")); other == tok {
		t.Error("two files, one token")
	}

	readable := filepath.Join(dir, "readable")
	os.WriteFile(readable, []byte("abc\n"), 0o644)
	os.Chmod(readable, 0o644)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{readable: "chmod 600", empty: "is empty", fifo: "not a regular file"} {
		if _, err := LoadToken(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", filepath.Base(path), err, want)
		}
	}
}

// What --http prints carries the URL and the token in each client's line.
func TestClientSetup(t *testing.T) {
	out := ClientSetup("http://127.0.0.1:7390/mcp", "TOK")
	for _, want := range []string{
		`claude mcp add --transport http followup http://127.0.0.1:7390/mcp --header "Authorization: Bearer TOK"`,
		`http_headers = { Authorization = "Bearer TOK" }`,
		`"headers": {"Authorization": "Bearer TOK"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("setup lines lack %s:\n%s", want, out)
		}
	}
}
