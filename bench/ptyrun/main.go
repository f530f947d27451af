// Command ptyframe times the first frame as a terminal receives it (docs/performance.md):
// it opens a pseudo-terminal of a fixed size itself, starts each
// program on it, plays the terminal (answering its colour and cursor
// queries as an xterm does) and timestamps the moment the text that says
// the active form is drawn — the marker — has arrived. Programs run in
// turn, the first of each run rotating, many runs; it prints medians and
// each one's ratio to the first program (the floor) and to -ref.
//
//	go run ./bench/ptyframe -runs 21 \
//	    'floor=enter submit=env FLOOR_FIELD=input bench-floor' \
//	    'big=ctrl+f to=followup --db big.db'
//
// Each program is NAME=MARKER=COMMAND [ARGS…] (split at spaces); a marker
// A|B arrives when either text does (a form drawn focused or not). TERM is
// -term. By default a program runs as it would for a user — its frames
// reach the terminal as it draws them — and the harness ends it
// (SIGTERM) once the marker arrived. With -exit it runs with
// FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1 instead, quitting by itself right after
// that frame (the frame is then flushed at once, off the tick) and logging
// when it drew it (FOLLOWUP_FIRST_FRAME_AT).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type program struct {
	name, marker string
	argv         []string
}

// sample is one run of one program, each time since its start.
type sample struct {
	frame    time.Duration // the marker received through the pty
	cpuFrame time.Duration // the CPU time the program had used by then
	drawn    time.Duration // -exit: the program's own log of drawing it (0: none)
	exit     time.Duration // -exit: the program's exit
	cpu      time.Duration // -exit: its user + system CPU time, start to exit
	maxRSS   int64         // its peak resident memory, kB
}

// settings are the flags every run shares.
type settings struct {
	cols, rows int
	env        []string
	exit       bool
	timeout    time.Duration
	at         string // the file a program logs its first frame's time to
}

func main() {
	runs := flag.Int("runs", 21, "runs of each program")
	warm := flag.Int("warmup", 3, "runs of each program first, not counted")
	size := flag.String("size", "120x40", "terminal size, COLSxROWS")
	termName := flag.String("term", "xterm-256color", "TERM the programs see")
	ref := flag.String("ref", "", "name of a program to give every ratio to as well")
	exit := flag.Bool("exit", false, "programs quit by themselves right after the first frame")
	timeout := flag.Duration("timeout", 20*time.Second, "how long a run may take")
	flag.Parse()
	set := settings{exit: *exit, timeout: *timeout}
	if _, err := fmt.Sscanf(*size, "%dx%d", &set.cols, &set.rows); err != nil || set.cols < 1 || set.rows < 1 {
		fail(fmt.Errorf("-size %q: want COLSxROWS", *size))
	}
	progs, err := parse(flag.Args())
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "ptyframe")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	set.at = filepath.Join(dir, "at")
	set.env = environ(*termName, *exit)
	samples := make([][]sample, len(progs))
	for run := range *warm + *runs {
		for k := range progs {
			i := (run + k) % len(progs) // the first of each run rotates
			s, err := once(progs[i], set)
			if err != nil {
				os.RemoveAll(dir)
				fail(fmt.Errorf("%s, run %d: %w", progs[i].name, run+1, err))
			}
			if run >= *warm {
				samples[i] = append(samples[i], s)
			}
		}
	}
	report(os.Stdout, progs, samples, *ref, *exit)
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
		ps = append(ps, program{name: parts[0], marker: parts[1], argv: strings.Fields(parts[2])})
	}
	return ps, nil
}

// environ is the harness's environment as a terminal of type term would
// give it, outside any multiplexer.
func environ(term string, exit bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM", "TMUX", "TMUX_PANE", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "STY",
			"FOLLOWUP_EXIT_AFTER_FIRST_FRAME", "FOLLOWUP_FIRST_FRAME_AT":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "TERM="+term)
	if exit {
		env = append(env, "FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1")
	}
	return env
}

// arrival is the moment the marker arrived.
type arrival struct{ at, cpu time.Duration }

// once runs p on a new terminal until it exits.
func once(p program, set settings) (sample, error) {
	master, slave, err := openPty(set.cols, set.rows)
	if err != nil {
		return sample{}, err
	}
	defer master.Close()
	os.Remove(set.at)
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env = set.env
	if set.exit {
		cmd.Env = append(cmd.Env, "FOLLOWUP_FIRST_FRAME_AT="+set.at)
	}
	onTerminal(cmd, slave)
	var s sample
	arrived := make(chan arrival, 1)
	drained := make(chan []byte, 1)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return s, err
	}
	slave.Close() // the program holds it now: its exit ends the reads
	go read(master, p.marker, start, cmd.Process.Pid, arrived, drained)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	deadline := time.After(set.timeout)
	var werr error
	var got *arrival
wait:
	for {
		select {
		case a := <-arrived:
			got = &a
			if !set.exit {
				cmd.Process.Signal(syscall.SIGTERM) // seen: the run is over
			}
		case werr = <-waited:
			s.exit = time.Since(start)
			break wait
		case <-deadline:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its session's process group
			<-waited
			return s, fmt.Errorf("still running after %s; the terminal shows:\n%s", set.timeout, <-drained)
		}
	}
	out := <-drained
	if got == nil {
		select {
		case a := <-arrived:
			got = &a
		default:
			return s, fmt.Errorf("exited (%v) without drawing %q; the terminal shows:\n%s", werr, p.marker, out)
		}
	}
	s.frame, s.cpuFrame = got.at, got.cpu
	if set.exit {
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.maxRSS = ru.Maxrss
	}
	if werr != nil && set.exit {
		return s, fmt.Errorf("%v; the terminal shows:\n%s", werr, out)
	}
	if b, err := os.ReadFile(set.at); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		if ns, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64); err == nil {
			s.drawn = time.Unix(0, ns).Sub(start)
		}
	}
	return s, nil
}

// read plays the terminal until the program's side closes: it answers
// queries, and sends on arrived when the text drawn first held marker and
// the CPU time process pid had used by then. It sends the text drawn on
// drained at the end.
func read(master *os.File, marker string, start time.Time, pid int, arrived chan<- arrival, drained chan<- []byte) {
	var sc screen
	found := false
	buf := make([]byte, 64<<10)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			now := time.Since(start)
			if reply := sc.write(buf[:n]); len(reply) > 0 {
				master.Write(reply)
			}
			if !found && sc.shows(marker) {
				found = true
				arrived <- arrival{now, cpuTime(pid)}
			}
		}
		if err != nil { // EIO once the program and its children have closed the terminal
			drained <- sc.text
			return
		}
	}
}

// cpuTime is the CPU time the threads of process pid have run so far, in
// nanoseconds (schedstat), or 0 when it cannot be read.
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				sum += ns
			}
		}
	}
	return time.Duration(sum)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ptyframe:", err)
	os.Exit(1)
}
