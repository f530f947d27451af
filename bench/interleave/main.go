// Command interleave runs whole commands side by side: one run of each in
// turn, round after round, so that a change in the machine's load falls on
// all of them alike. It prints, for each command, the median wall time
// (from start to exit), the median CPU time (user + system, from the
// child's rusage) with their ranges, and both as a ratio to the first
// command, the floor.
//
//	go run ./bench/interleave -runs 61 "followup --version" "followup --db big.db pending --json"
//
// A command is split on spaces (no shell); its output goes to /dev/null.
// "LABEL::COMMAND" labels a command in the table.
// The first rounds (-warmup) are not counted: they fill the page cache.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("runs", 41, "rounds counted")
	warmup := flag.Int("warmup", 3, "rounds run first and not counted")
	flag.Parse()
	var names, cmds []string
	for _, a := range flag.Args() {
		name, cmd, ok := strings.Cut(a, "::")
		if !ok {
			name, cmd = a, a
		}
		names, cmds = append(names, name), append(cmds, cmd)
	}
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: interleave [-runs N] [-warmup N] COMMAND…")
		os.Exit(2)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fail(err)
	}
	wall := make([][]float64, len(cmds))
	cpu := make([][]float64, len(cmds))
	for r := 0; r < *warmup+*runs; r++ {
		for i, c := range cmds {
			w, u, err := run(c, null)
			if err != nil {
				fail(fmt.Errorf("%s: %w", c, err))
			}
			if r >= *warmup {
				wall[i], cpu[i] = append(wall[i], w), append(cpu[i], u)
			}
		}
	}
	fmt.Printf("%d rounds, interleaved; medians (range) in ms, ratios to the first command\n", *runs)
	fmt.Printf("%-58s %22s %22s %6s %6s\n", "command", "wall", "cpu", "×wall", "×cpu")
	w0, c0 := median(wall[0]), median(cpu[0])
	for i := range cmds {
		w, u := median(wall[i]), median(cpu[i])
		fmt.Printf("%-58s %7.2f (%5.2f–%5.2f) %7.2f (%5.2f–%5.2f) %6.2f %6.2f\n", short(names[i], 58),
			w, slices.Min(wall[i]), slices.Max(wall[i]), u, slices.Min(cpu[i]), slices.Max(cpu[i]), w/w0, u/c0)
	}
}

// run runs the command c once and returns its wall and CPU time in ms. A
// command that exits 1 or 2 counts as run (a refusal is part of what may be
// measured); one that cannot start, or whose program was not found or
// could not run (env's 126 and 127) or was killed, fails.
func run(c string, out *os.File) (wall, cpu float64, err error) {
	f := strings.Fields(c)
	cmd := exec.Command(f[0], f[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	err = cmd.Run()
	wall = ms(time.Since(start))
	if cmd.ProcessState == nil {
		return 0, 0, err
	}
	if code := cmd.ProcessState.ExitCode(); code < 0 || code > 2 {
		return 0, 0, err
	}
	return wall, ms(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+3:] // the ellipsis is 3 bytes, 1 column
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "interleave:", err)
	os.Exit(1)
}
