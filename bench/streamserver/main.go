// Command streamserver is a model server on loopback for bench/stream.sh:
// it speaks the OpenAI chat-completions stream and answers a user message
// "stream WORDS RATE [SEED]" with a markdown reply of about WORDS words
// (bench/replies, seed 1 unless given) streamed at RATE deltas a second (0:
// as fast as the client reads). It prints its base URL, then, for every reply sent, a
// line to the -log file:
//
//	words=6000 rate=450 deltas=9230 bytes=41225 sha256=… ms=20512
//
//	go run ./bench/streamserver -log /tmp/stream.log
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"followup/agent/agenttest"
	"followup/bench/replies"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (loopback)")
	logPath := flag.String("log", "", "file each reply sent is logged to")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "streamserver:", err)
		os.Exit(1)
	}
	if !strings.HasPrefix(ln.Addr().String(), "127.0.0.1:") {
		fmt.Fprintln(os.Stderr, "streamserver: not on loopback:", ln.Addr())
		os.Exit(2)
	}
	var mu sync.Mutex
	logf := func(format string, a ...any) {
		if *logPath == "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if f, err := os.OpenFile(*logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintf(f, format+"\n", a...)
			f.Close()
		}
	}
	fmt.Printf("http://%s/v1\n", ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		words, rate, seed := 500, 450, uint64(1)
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		json.Unmarshal(raw, &body)
		for i := len(body.Messages) - 1; i >= 0; i-- {
			if body.Messages[i].Role == "user" {
				fmt.Sscanf(body.Messages[i].Content, "stream %d %d %d", &words, &rate, &seed)
				break
			}
		}
		text := replies.Markdown(words, seed)
		deltas := replies.Deltas(text)
		start := time.Now()
		writePaced(w, r, deltas, rate)
		logf("words=%d rate=%d deltas=%d bytes=%d sha256=%x ms=%d", words, rate, len(deltas), len(text),
			sha256.Sum256([]byte(text)), time.Since(start).Milliseconds())
	}))
}

// writePaced streams an assistant turn of text in the given deltas,
// perSecond of them a second (0: as fast as the connection takes them),
// each flushed on its own, and ends it with "stop". Deltas are sent on a
// schedule from the first, so a slow moment is caught up, not added to the
// rest. It stops early when the client goes away.
func writePaced(w http.ResponseWriter, r *http.Request, deltas []string, perSecond int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	fmt.Fprintf(w, "%s\n\n", agenttest.OpenAIChunk(`{"role":"assistant","content":""}`, ""))
	f.Flush()
	start := time.Now()
	for i, d := range deltas {
		if perSecond > 0 {
			if wait := time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(perSecond))); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.Context().Done():
					return
				}
			}
		}
		b, _ := json.Marshal(d)
		fmt.Fprintf(w, "%s\n\n", agenttest.OpenAIChunk(`{"content":`+string(b)+`}`, ""))
		f.Flush()
	}
	fmt.Fprintf(w, "%s\n\n%s\n\n", agenttest.OpenAIChunk(`{}`, "stop"), agenttest.OpenAIDone)
	f.Flush()
}
