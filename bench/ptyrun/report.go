package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// column is one figure of a sample, in the unit printed.
type column struct {
	name string
	get  func(sample) float64
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// report prints, per program and figure, the median (and range) with the
// ratio of each median to the first program's and to ref's.
func report(w io.Writer, progs []program, samples [][]sample, ref string, set settings) {
	refAt := slices.IndexFunc(progs, func(p program) bool { return p.name == ref })
	cols := []column{
		{"start until the form showed the key typed (ms)", func(s sample) float64 { return ms(s.taken) }},
		{"CPU used by then (ms)", func(s sample) float64 { return ms(s.cpuTaken) }},
	}
	if set.keys > 0 {
		cols = append(cols,
			column{fmt.Sprintf("idle with the form, %% of a core (over %s)", set.idle), func(s sample) float64 { return s.idle * 100 }},
			column{fmt.Sprintf("CPU per key, less idle (µs; %d keys at %g/s)", set.keys, set.rate), func(s sample) float64 { return float64(s.perKey.Microseconds()) }},
			column{"CPU per key, raw (µs)", func(s sample) float64 { return float64(s.rawKey.Microseconds()) }})
	}
	if set.window > 0 {
		cols = append(cols,
			column{fmt.Sprintf("the program's own CPU over the %s from its start (ms)", set.window), func(s sample) float64 { return ms(s.cpuOwn) }},
			column{fmt.Sprintf("CPU over the run, %s from start, reaped children included (ms)", set.window), func(s sample) float64 { return ms(s.cpuAll) }},
			column{"processes running at the end of the window", func(s sample) float64 { return float64(s.procs) }})
	}
	cols = append(cols, column{"peak resident memory (MB)", func(s sample) float64 { return float64(s.maxRSS) / 1024 }})
	fmt.Fprintf(w, "%d runs each, interleaved; median (range); ×%s", len(samples[0]), progs[0].name)
	if refAt >= 0 {
		fmt.Fprintf(w, " and ×%s", ref)
	}
	fmt.Fprintln(w)
	for _, c := range cols {
		fmt.Fprintf(w, "%s:\n", c.name)
		base := median(samples[0], c.get)
		for i, p := range progs {
			v := values(samples[i], c.get)
			m := median(samples[i], c.get)
			fmt.Fprintf(w, "  %-12s %9.2f (%.2f–%.2f)  ×%s", p.name, m, v[0], v[len(v)-1], ratio(m, base))
			if refAt >= 0 {
				fmt.Fprintf(w, "  ×%s", ratio(m, median(samples[refAt], c.get)))
			}
			fmt.Fprintln(w)
		}
	}
}

func values(ss []sample, get func(sample) float64) []float64 {
	var v []float64
	for _, s := range ss {
		v = append(v, get(s))
	}
	slices.Sort(v)
	return v
}

func median(ss []sample, get func(sample) float64) float64 {
	v := values(ss, get)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}
