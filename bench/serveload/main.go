// Command serveload measures `followup mcp serve` under many agents
// (docs/performance.md, the serve rows): N clients of the Go MCP SDK, each
// its own session over streamable HTTP, ask at once (input_request
// latency), then wait with input_wait while nothing happens (the serve
// process's idle CPU, from /proc/PID/stat), then are answered one by one by
// `followup answer` in another process (from the answer's receipt — printed
// just after its commit — until the agent's input_wait returns). The same
// answer latency is measured with one session waiting. The load average is
// printed beside each figure. With -rounds, every session asks at once
// again that many times (and withdraws), which steadies the figures.
//
//	go build -o /tmp/followup . && go run ./bench/serveload -bin /tmp/followup -n 100 [-rounds 20]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("bin", "followup", "the followup binary")
	n := flag.Int("n", 100, "sessions at once")
	idle := flag.Duration("idle", 20*time.Second, "how long to measure idle CPU with every session waiting")
	single := flag.Int("single", 30, "answers measured with one session waiting")
	rounds := flag.Int("rounds", 0, "rounds more of every session asking at once (then withdrawing), on the chats the first made")
	flag.Parse()
	dir, err := os.MkdirTemp("", "serveload")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "f.db")
	srv := startServe(*bin, db, filepath.Join(dir, "token"))
	defer srv.cmd.Process.Kill()

	clients := make([]*mcp.ClientSession, *n)
	parallel(*n, func(i int) {
		c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("agent-%d", i), Version: "1"}, nil)
		// Each agent is a process of its own, with its own connections
		// kept alive (a shared transport keeps two, and would open a
		// connection for most calls).
		hc := &http.Client{Transport: bearer{srv.token, http.DefaultTransport.(*http.Transport).Clone()}}
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: hc}, nil)
		if err != nil {
			log.Fatalf("connect: %v", err)
		}
		clients[i] = cs
	})

	// input_request, every session at once.
	ids := make([]string, *n)
	took := make([]time.Duration, *n)
	served, own := cpu(srv.cmd.Process.Pid), selfCPU()
	parallel(*n, func(i int) {
		start := time.Now()
		ids[i] = request(clients[i], "load")
		took[i] = time.Since(start)
	})
	served, own = cpu(srv.cmd.Process.Pid)-served, selfCPU()-own
	fmt.Printf("input_request with %d concurrent clients: p50 %s, p95 %s; CPU a request: the server's %s, the clients' %s   (%s)\n",
		*n, pct(took, 50), pct(took, 95), (served / time.Duration(*n)).Round(10*time.Microsecond),
		(own / time.Duration(*n)).Round(10*time.Microsecond), load())

	// Further rounds: the chats and sessions exist; each question is
	// withdrawn after its round (a session has at most 8 waiting).
	if *rounds > 0 {
		var all []time.Duration
		served, own := cpu(srv.cmd.Process.Pid), selfCPU()
		for r := range *rounds {
			asked := make([]string, *n)
			took := make([]time.Duration, *n)
			parallel(*n, func(i int) {
				start := time.Now()
				asked[i] = request(clients[i], fmt.Sprintf("round-%d", r))
				took[i] = time.Since(start)
			})
			all = append(all, took...)
			parallel(*n, func(i int) { call(clients[i], "input_cancel", map[string]any{"requestId": asked[i]}) })
		}
		served, own = cpu(srv.cmd.Process.Pid)-served, selfCPU()-own
		calls := time.Duration(2 * *n * *rounds)
		fmt.Printf("%d more rounds: p50 %s, p95 %s; CPU a call (input_request or input_cancel): the server's %s, the clients' %s   (%s)\n",
			*rounds, pct(all, 50), pct(all, 95), (served / calls).Round(10*time.Microsecond), (own / calls).Round(10*time.Microsecond), load())
	}

	// Idle: every session waits.
	returned := make([]chan time.Time, *n)
	for i := range *n {
		returned[i] = make(chan time.Time, 1)
		go func() { returned[i] <- wait(clients[i], ids[i]) }()
	}
	time.Sleep(3 * time.Second)
	before, start := cpu(srv.cmd.Process.Pid), time.Now()
	time.Sleep(*idle)
	used := cpu(srv.cmd.Process.Pid) - before
	fmt.Printf("idle with %d sessions waiting: %.2f%% of a core over %s   (%s)\n", *n, 100*used.Seconds()/time.Since(start).Seconds(), *idle, load())

	// Answers with every other session still waiting.
	lat := make([]time.Duration, 0, *n)
	for i := range *n {
		committed := answer(*bin, db, ids[i])
		lat = append(lat, (<-returned[i]).Sub(committed))
	}
	fmt.Printf("answer to agent with %d sessions waiting: p50 %s, p95 %s, max %s   (%s)\n", *n, pct(lat, 50), pct(lat, 95), pct(lat, 100), load())

	// One session waiting.
	lat = lat[:0]
	for k := range *single {
		id := request(clients[0], fmt.Sprintf("single-%d", k))
		got := make(chan time.Time, 1)
		go func() { got <- wait(clients[0], id) }()
		time.Sleep(200 * time.Millisecond) // the wait has begun
		committed := answer(*bin, db, id)
		lat = append(lat, (<-got).Sub(committed))
	}
	fmt.Printf("answer to agent with 1 session waiting: p50 %s, p95 %s, max %s   (%s)\n", pct(lat, 50), pct(lat, 95), pct(lat, 100), load())
	for _, cs := range clients {
		cs.Close()
	}
}

type serve struct {
	cmd   *exec.Cmd
	url   string
	token string
}

// startServe starts `followup mcp serve --http` and reads its URL and token
// from what it prints.
func startServe(bin, db, tokenFile string) serve {
	cmd := exec.Command(bin, "--db", db, "mcp", "serve", "--http", "127.0.0.1:0", "--token-file", tokenFile)
	// The server ends with this process however it ends (a closed pipe,
	// a signal), not only through the deferred Kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var url string
	for sc.Scan() {
		line := sc.Text()
		if _, rest, ok := strings.Cut(line, "serving MCP on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
		if _, rest, ok := strings.Cut(line, `--header "Authorization: Bearer `); ok && url != "" {
			go func() {
				for sc.Scan() {
				}
			}()
			return serve{cmd: cmd, url: url, token: strings.TrimSuffix(rest, `"`)}
		}
	}
	log.Fatal("mcp serve --http never said where it listens")
	return serve{}
}

type bearer struct {
	token string
	http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.RoundTripper.RoundTrip(r)
}

func call(cs *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		log.Fatalf("%s: %v", tool, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil || out["ok"] != true {
		log.Fatalf("%s: %v %v", tool, out, err)
	}
	return out
}

func request(cs *mcp.ClientSession, key string) string {
	return call(cs, "input_request", map[string]any{"requestKey": key, "reason": "load",
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Load",
			"fields": []any{map[string]any{"name": "a", "type": "text", "label": "A"}}}}})["requestId"].(string)
}

// wait calls input_wait until the request is no longer pending and
// returns when that result arrived.
func wait(cs *mcp.ClientSession, id string) time.Time {
	for call(cs, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": 50})["state"] == "pending" {
	}
	return time.Now()
}

// answer runs `followup answer` and returns when its receipt arrived,
// printed right after the answer was committed.
func answer(bin, db, id string) time.Time {
	cmd := exec.Command(bin, "--db", db, "--json", "answer", id, "--values-json", `{"a":"x"}`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := out.Read(b); err != nil {
		log.Fatalf("answer %s: %v", id, err)
	}
	at := time.Now()
	go func() {
		for {
			if _, err := out.Read(make([]byte, 4096)); err != nil {
				break
			}
		}
		cmd.Wait()
	}()
	return at
}

func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { f(i) })
	}
	wg.Wait()
}

func pct(ds []time.Duration, p int) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(len(s)-1, (len(s)*p+99)/100-1)
	return s[max(0, i)].Round(100 * time.Microsecond).String()
}

// cpu is the process's user and system CPU time (/proc/PID/stat, in
// clock ticks of 10 ms).
func cpu(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		log.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	var u, s int64
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// selfCPU is the CPU this process (the clients) has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func load() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	return "load " + strings.Join(f[:3], " ")
}
