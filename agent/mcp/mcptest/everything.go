package mcptest

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// EverythingStdio is the command line that runs server-everything over stdio, for an MCP
// config entry or a CommandTransport.
func (p Peers) EverythingStdio(t testing.TB) (command string, args []string) {
	t.Helper()
	return p.Node(t), []string{p.EverythingScript(), "stdio"}
}

// StartEverythingHTTP starts server-everything's streamable HTTP mode on a free loopback
// port and returns its endpoint URL (http://127.0.0.1:PORT/mcp). The server runs in its
// own process group, which the test's cleanup kills.
func (p Peers) StartEverythingHTTP(t testing.TB) string {
	t.Helper()
	node := p.Node(t)
	var lastErr string
	for attempt := 0; attempt < 3; attempt++ {
		port := freePort(t)
		cmd := exec.Command(node, p.EverythingScript(), "streamableHttp")
		cmd.Env = append(cmd.Environ(), "PORT="+strconv.Itoa(port))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out := &SyncBuffer{}
		cmd.Stdout = out
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting server-everything: %v", err)
		}
		ready := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(stderr)
			said := false
			for sc.Scan() {
				out.Write(append(sc.Bytes(), '\n'))
				if !said && strings.Contains(sc.Text(), "listening on port") {
					said = true
					ready <- true
				}
			}
			if !said {
				ready <- false
			}
		}()
		stop := func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
		select {
		case ok := <-ready:
			if ok {
				t.Cleanup(func() {
					stop()
					if t.Failed() {
						t.Logf("server-everything output:\n%s", out.String())
					}
				})
				return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
			}
		case <-time.After(20 * time.Second):
		}
		stop()
		lastErr = out.String()
	}
	t.Fatalf("server-everything did not start over HTTP:\n%s", lastErr)
	return ""
}

// freePort asks the kernel for a loopback port that is free right now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// SyncBuffer collects output written from several goroutines (a
// process's, a command's) while a test reads it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

var _ io.Writer = (*SyncBuffer)(nil)

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
