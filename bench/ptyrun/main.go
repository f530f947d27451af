// Command ptyrun is the one driver of the whole-process terminal
// benchmarks (docs/performance.md): it opens a pseudo-terminal of a fixed
// size itself, starts each program on it and plays the terminal
// (answering its colour and cursor queries as an xterm does). Programs run
// in turn, the first of each run rotating, many runs; it prints medians,
// ranges and each one's ratio to the first program (the floor) and to
// -ref.
//
// Each run measures the time until the program's form takes keys: once
// the program has put the terminal in raw mode and entered the alternate
// screen (it reads keys for its screen), the harness types -key, and the run's time is when the form's field shows
// it — the MARKER, a regular expression the text drawn after the key was
// typed must match (for example "┃ > Z": a key landing anywhere else, or
// a form drawn unfocused, does not count). Then, as asked:
//
//   - -keys N: the idle CPU over -idle, then N keys typed at -rate a
//     second (a letter and a backspace in turn), and the CPU per key less
//     the idle rate;
//
//   - -window D: the program runs until D after its start (for servers it
//     starts to have started) and the CPU over the whole run, its reaped
//     children included, is reported with the processes it had running.
//
//     go run ./bench/ptyrun -runs 21 'floor=┃ > Z=bench-floor' 'big=┃ > \S*Z=followup --db @copy:big.db'
//
// Each program is NAME=MARKER=COMMAND [ARGS…] (split at spaces); an
// argument @copy:PATH is a fresh copy of the file PATH for each run.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

type program struct {
	name   string
	marker *regexp.Regexp
	argv   []string
}

// sample is one run of one program.
type sample struct {
	taken    time.Duration // start until the form showed the key
	cpuTaken time.Duration // the CPU the program had used by then
	idle     float64       // -keys: CPU over wall time, idle with the form
	perKey   time.Duration // -keys: CPU per key less idle
	rawKey   time.Duration // -keys: CPU per key
	cpuOwn   time.Duration // -window: the program's own CPU over the window
	cpuAll   time.Duration // start to exit, reaped children included
	procs    int           // -window: processes running at its end, the program's included
	maxRSS   int64         // peak resident memory, kB
}

type settings struct {
	cols, rows int
	env        []string
	key        string
	keys       int
	rate       float64
	idle       time.Duration
	window     time.Duration
	timeout    time.Duration
}

func main() {
	runs := flag.Int("runs", 21, "runs of each program")
	warm := flag.Int("warmup", 3, "runs of each program first, not counted")
	size := flag.String("size", "120x40", "terminal size, COLSxROWS")
	termName := flag.String("term", "xterm-256color", "TERM the programs see")
	ref := flag.String("ref", "", "name of a program to give every ratio to as well")
	var set settings
	flag.StringVar(&set.key, "key", "Z", "the key typed once the program reads keys")
	flag.IntVar(&set.keys, "keys", 0, "keys typed after the form took the first (0: none)")
	flag.Float64Var(&set.rate, "rate", 20, "keys a second")
	flag.DurationVar(&set.idle, "idle", 3*time.Second, "idle time measured before typing")
	flag.DurationVar(&set.window, "window", 0, "run each program this long from its start (0: end it once the form took the key)")
	flag.DurationVar(&set.timeout, "timeout", 30*time.Second, "how long a run may take")
	flag.Parse()
	if _, err := fmt.Sscanf(*size, "%dx%d", &set.cols, &set.rows); err != nil || set.cols < 1 || set.rows < 1 {
		fail(fmt.Errorf("-size %q: want COLSxROWS", *size))
	}
	progs, err := parse(flag.Args())
	if err != nil {
		fail(err)
	}
	set.env = environ(*termName)
	samples := make([][]sample, len(progs))
	for run := range *warm + *runs {
		for k := range progs {
			i := (run + k) % len(progs) // the first of each run rotates
			s, err := once(progs[i], set)
			if err != nil {
				fail(fmt.Errorf("%s, run %d: %w", progs[i].name, run+1, err))
			}
			if run >= *warm {
				samples[i] = append(samples[i], s)
			}
		}
	}
	report(os.Stdout, progs, samples, *ref, set)
}

// parse reads NAME=MARKER=COMMAND [ARGS…] specs.
func parse(args []string) ([]program, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no programs: give NAME=MARKER=COMMAND [ARGS…]")
	}
	var ps []program
	for _, a := range args {
		parts := strings.SplitN(a, "=", 3)
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" || strings.TrimSpace(parts[2]) == "" {
			return nil, fmt.Errorf("%q: want NAME=MARKER=COMMAND [ARGS…]", a)
		}
		re, err := regexp.Compile(parts[1])
		if err != nil {
			return nil, fmt.Errorf("%q: %w", a, err)
		}
		ps = append(ps, program{name: parts[0], marker: re, argv: strings.Fields(parts[2])})
	}
	return ps, nil
}

// environ is the harness's environment as a terminal of type term would
// give it, outside any multiplexer.
func environ(term string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM", "TMUX", "TMUX_PANE", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "STY":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TERM="+term)
}

// run is one program on its terminal: what it drew, and when.
type run struct {
	mu      sync.Mutex
	marker  *regexp.Regexp
	sc      screen
	from    int           // the marker counts in sc.text[from:]; -1: no key typed yet
	taken   chan struct{} // closed when the marker arrived
	at, cpu time.Duration // when it arrived and the CPU used by then
	last    time.Time     // the last output
}

// read plays the terminal until the program's side closes.
func (r *run) read(master *os.File, start time.Time, pid int) {
	buf := make([]byte, 64<<10)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			r.mu.Lock()
			r.last = time.Now()
			if reply := r.sc.write(buf[:n]); len(reply) > 0 {
				master.Write(reply)
			}
			if r.from >= 0 && r.at == 0 && r.sc.shows(r.from, r.marker) {
				r.at, r.cpu = time.Since(start), cpuTime(pid)
				close(r.taken)
			}
			r.mu.Unlock()
		}
		if err != nil { // EIO once the program and its children have closed the terminal
			return
		}
	}
}

// once runs p on a new terminal until it exits.
func once(p program, set settings) (s sample, err error) {
	master, slave, err := openPty(set.cols, set.rows)
	if err != nil {
		return s, err
	}
	defer master.Close()
	argv, err := fresh(p.argv)
	if err != nil {
		return s, err
	}
	argv, dir := argv[:len(argv)-1], argv[len(argv)-1]
	defer os.RemoveAll(dir)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = set.env
	onTerminal(cmd, slave)
	r := &run{marker: p.marker, from: -1, taken: make(chan struct{})}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return s, err
	}
	slave.Close() // the program holds it now: its exit ends the reads
	pid := cmd.Process.Pid
	defer syscall.Kill(-pid, syscall.SIGKILL) // what it left running (its session's process group)
	go r.read(master, start, pid)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	deadline := time.Now().Add(set.timeout)
	shown := func() string { r.mu.Lock(); defer r.mu.Unlock(); return string(r.sc.text) }
	stop := func(why string) (sample, error) {
		syscall.Kill(-pid, syscall.SIGKILL)
		<-waited
		return s, fmt.Errorf("%s; the terminal shows:\n%s", why, shown())
	}

	// Type the key once the program reads keys for its screen: the
	// terminal raw and the alternate screen entered (a terminal query
	// before, lipgloss's, puts the terminal in raw mode for a moment and
	// eats what is typed then).
	for !raw(master) || !r.entered() {
		if time.Now().After(deadline) {
			return stop("the terminal never went raw")
		}
		time.Sleep(200 * time.Microsecond)
	}
	r.mu.Lock()
	r.from = len(r.sc.text)
	r.mu.Unlock()
	master.WriteString(set.key)
	select {
	case <-r.taken:
	case err := <-waited:
		return s, fmt.Errorf("exited (%v) before its form showed %s; the terminal shows:\n%s", err, p.marker, shown())
	case <-time.After(time.Until(deadline)):
		return stop(fmt.Sprintf("its form never showed %s", p.marker))
	}
	r.mu.Lock()
	s.taken, s.cpuTaken = r.at, r.cpu
	r.mu.Unlock()

	if set.keys > 0 {
		quiet(r, 300*time.Millisecond)
		c0, t0 := cpuTime(pid), time.Now()
		time.Sleep(set.idle)
		c1, t1 := cpuTime(pid), time.Now()
		s.idle = float64(c1-c0) / float64(t1.Sub(t0))
		r.mu.Lock()
		from := len(r.sc.text)
		r.mu.Unlock()
		every := time.Duration(float64(time.Second) / set.rate)
		for i := range set.keys {
			time.Sleep(time.Until(t1.Add(time.Duration(i) * every)))
			master.WriteString([]string{"a", "\x7f"}[i%2])
		}
		quiet(r, 300*time.Millisecond)
		c2, t2 := cpuTime(pid), time.Now()
		r.mu.Lock()
		typed := r.sc.shows(from, regexp.MustCompile(p.marker.String()+"a"))
		r.mu.Unlock()
		if !typed {
			return stop(fmt.Sprintf("the keys typed did not show in the form (%sa)", p.marker))
		}
		s.rawKey = (c2 - c1) / time.Duration(set.keys)
		s.perKey = s.rawKey - time.Duration(s.idle*float64(t2.Sub(t1)))/time.Duration(set.keys)
	}
	if set.window > 0 {
		time.Sleep(time.Until(start.Add(set.window)))
		s.procs, s.cpuOwn = len(descendants(pid))+1, cpuTime(pid)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		return stop("still running 10 s after SIGTERM")
	}
	s.cpuAll = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.maxRSS = ru.Maxrss
	}
	return s, nil
}

// fresh replaces each argument @copy:PATH with a new copy of the file
// PATH (a database the run may change) in a directory of its own, which
// it names last, for the caller to remove.
func fresh(argv []string) ([]string, error) {
	dir, err := os.MkdirTemp("", "ptyrun")
	if err != nil {
		return nil, err
	}
	out := slices.Clone(argv)
	for i, a := range out {
		if src, ok := strings.CutPrefix(a, "@copy:"); ok {
			out[i] = filepath.Join(dir, filepath.Base(src))
			if err := copyFile(src, out[i]); err != nil {
				return nil, err
			}
		}
	}
	return append(out, dir), nil
}

// copyFile copies in the kernel: the harness's memory, which a program
// started after it counts in its peak, stays small.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// entered reports whether the program has switched to the alternate screen.
func (r *run) entered() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Contains(r.sc.raw, []byte("\x1b[?1049h"))
}

// raw reports whether the terminal is in raw mode (no line editing): the
// program reads keys one by one. A pty's master reads its slave's modes.
func raw(master *os.File) bool {
	t, err := unix.IoctlGetTermios(int(master.Fd()), unix.TCGETS)
	return err == nil && t.Lflag&unix.ICANON == 0
}

// quiet waits until the program has drawn nothing for d.
func quiet(r *run, d time.Duration) {
	for {
		r.mu.Lock()
		since := time.Since(r.last)
		r.mu.Unlock()
		if since >= d {
			return
		}
		time.Sleep(d - since)
	}
}

// descendants are the processes whose ancestry leads to pid.
func descendants(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		p, _ := strconv.Atoi(strings.SplitN(string(b), " ", 2)[0])
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// cpuTime is the CPU time the threads of process pid have run so far
// (schedstat), or 0 when it cannot be read.
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				sum += ns
			}
		}
	}
	return time.Duration(sum)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ptyrun:", err)
	os.Exit(1)
}
