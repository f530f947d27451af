package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
)

// endless is standard input that never ends, counting what is read.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += len(p)
	return len(p), nil
}

// Reading stops at the limit: never the whole input first.
func TestReadInputStopsAtTheLimit(t *testing.T) {
	in := &endless{}
	_, err := readInput("-", in)
	if chat.CodeOf(err) != chat.CodeLimitExceeded || !strings.Contains(err.Error(), "standard input is more than 8 MiB") {
		t.Fatalf("err = %v", err)
	}
	if in.n > MaxInputRead+1 {
		t.Fatalf("read %d bytes, the limit is %d", in.n, MaxInputRead)
	}
}

func TestReadInputNamesTheSize(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = readInput(sparse, nil)
	if chat.CodeOf(err) != chat.CodeLimitExceeded || !strings.Contains(err.Error(), "is 1.0 GiB (1073741824 bytes); the limit is 8 MiB") {
		t.Fatalf("sparse file: %v", err)
	}
	// Standard input redirected from a big file says its size too.
	in, _ := os.Open(sparse)
	defer in.Close()
	if _, err := readInput("-", in); !strings.Contains(err.Error(), "standard input is 1.0 GiB") {
		t.Fatalf("stdin from the sparse file: %v", err)
	}
	if _, err := readInput(dir, nil); chat.CodeOf(err) != chat.CodeInvalidArgument || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("a directory: %v", err)
	}
	if _, err := readInput(filepath.Join(dir, "nope.json"), nil); chat.CodeOf(err) != chat.CodeInvalidArgument || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("a missing file: %v", err)
	}
	exact := filepath.Join(dir, "exact.json")
	os.WriteFile(exact, make([]byte, MaxInputRead), 0o600)
	if raw, err := readInput(exact, nil); err != nil || len(raw) != MaxInputRead {
		t.Fatalf("a file of exactly the limit: %d bytes, %v", len(raw), err)
	}
}

// Who asks, in words: a server's question during a sub-agent's call names
// both; the sub-agent's own question names it.
func TestOwnerText(t *testing.T) {
	for _, c := range []struct {
		o    chat.Owner
		want string
	}{
		{chat.Owner{Kind: chat.OwnerAgent}, "asked by the agent"},
		{chat.Owner{Kind: chat.OwnerMCPServer, Name: "booking"}, "asked by booking (MCP server)"},
		{chat.Owner{Kind: chat.OwnerAgent, Name: "venue", RunID: "r2", ParentRunID: "r1", Path: "plan/venue"}, "asked by plan/venue (sub-agent of this task)"},
		{chat.Owner{Kind: chat.OwnerMCPServer, Name: "booking", RunID: "r2", ParentRunID: "r1", Path: "venue"},
			"asked by booking (MCP server) for venue (sub-agent of this task)"},
	} {
		if got := ownerText(c.o); got != c.want {
			t.Errorf("ownerText(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}
