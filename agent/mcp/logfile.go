package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLogBytes bounds one server's log file. A log at least half full when followup starts
// is moved to .1, so each start has room and a server costs at most twice this on disk.
const maxLogBytes = 1 << 20

// serverLog is a server's stderr log: appended, bounded, never holding followup's own
// secrets (followup writes only the command line as the user wrote it, before ${VAR}
// expansion).
type serverLog struct {
	secrets Secrets
	mu      sync.Mutex
	f       *os.File
	written int64
	cut     bool
	tail    string // the last tailLines lines written in this process, for f2
}

// tailLines is how many of a log's last lines the servers dialog shows.
const tailLines = 4

// logPath is the log file of the named server in dir.
func logPath(dir, server string) string {
	return filepath.Join(dir, "mcp-"+sanitize(server)+".log")
}

// openLog opens the log of a server, rotating a log that is already full.
func openLog(path string, secrets Secrets) (*serverLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil && st.Size() >= maxLogBytes/2 {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	st, _ := f.Stat()
	l := &serverLog{f: f, secrets: secrets}
	if st != nil {
		l.written = st.Size()
	}
	return l, nil
}

// Note writes one line of followup's own about the server.
func (l *serverLog) Note(format string, args ...any) {
	line := time.Now().Format(time.RFC3339) + " followup: " + fmt.Sprintf(format, args...) + "\n"
	_, _ = l.Write([]byte(line))
}

// Message writes a log message the server sent (notifications/message), with its level.
func (l *serverLog) Message(p *sdk.LoggingMessageParams) {
	data, ok := p.Data.(string)
	if !ok {
		b, _ := json.Marshal(p.Data)
		data = string(b)
	}
	if p.Logger != "" {
		data = p.Logger + ": " + data
	}
	_, _ = l.Write([]byte(time.Now().Format(time.RFC3339) + " " + string(p.Level) + " " + data + "\n"))
}

// Tail is the last lines written in this process.
func (l *serverLog) Tail() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := strings.TrimRight(l.tail, "\n"); t != "" {
		return strings.Split(t, "\n")
	}
	return nil
}

// Write appends what the server wrote to stderr until the bound, then drops the rest
// (reporting success, so the server never blocks on a full pipe).
func (l *serverLog) Write(in []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.cut {
		return len(in), nil
	}
	p := []byte(l.secrets.Hide(string(in)))
	l.tail += string(p[len(p)-min(len(p), 4096):])
	if lines := strings.SplitAfter(l.tail, "\n"); len(lines) > tailLines+1 {
		l.tail = strings.Join(lines[len(lines)-tailLines-1:], "")
	}
	room := maxLogBytes - l.written
	if int64(len(p)) > room {
		if room > 0 {
			n, _ := l.f.Write(p[:room])
			l.written += int64(n)
		}
		_, _ = l.f.WriteString("\n[followup: log cut at 1 MiB; the rest of this session is not kept]\n")
		l.cut = true
		return len(in), nil
	}
	n, _ := l.f.Write(p)
	l.written += int64(n)
	return len(in), nil
}

// Close closes the file.
func (l *serverLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
