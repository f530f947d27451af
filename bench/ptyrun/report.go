package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// report prints, per program, the medians (and ranges) of start to the
// marker received and the CPU used by then (with -exit, start to the
// frame drawn as the program logs it, start to exit and the CPU used), with the
// ratio of each median to the first program's and to ref's.
func report(w io.Writer, progs []program, samples [][]sample, ref string, exit bool) {
	refAt := -1
	for i, p := range progs {
		if p.name == ref {
			refAt = i
		}
	}
	cols := []struct {
		name string
		get  func(sample) time.Duration
	}{
		{"start to the active form received", func(s sample) time.Duration { return s.frame }},
	}
	if !exit {
		// A program that quit by itself may have no threads left to read.
		cols = append(cols, struct {
			name string
			get  func(sample) time.Duration
		}{"CPU used by then", func(s sample) time.Duration { return s.cpuFrame }})
	}
	if exit {
		cols = append(cols, []struct {
			name string
			get  func(sample) time.Duration
		}{
			{"start to the frame drawn (the program's log)", func(s sample) time.Duration { return s.drawn }},
			{"start to exit after it", func(s sample) time.Duration { return s.exit }},
			{"CPU, start to exit", func(s sample) time.Duration { return s.cpu }},
		}...)
	}
	fmt.Fprintf(w, "%d runs each, interleaved; ms, median (range)", len(samples[0]))
	if refAt >= 0 {
		fmt.Fprintf(w, "; ×%s and ×%s", progs[0].name, ref)
	} else {
		fmt.Fprintf(w, "; ×%s", progs[0].name)
	}
	fmt.Fprintln(w)
	for _, c := range cols {
		fmt.Fprintf(w, "%s:\n", c.name)
		base := median(samples[0], c.get)
		var refMed float64
		if refAt >= 0 {
			refMed = median(samples[refAt], c.get)
		}
		for i, p := range progs {
			m := median(samples[i], c.get)
			lo, hi := span(samples[i], c.get)
			fmt.Fprintf(w, "  %-12s %7.2f (%.2f–%.2f)  ×%s", p.name, m, lo, hi, ratio(m, base))
			if refAt >= 0 {
				fmt.Fprintf(w, "  ×%s", ratio(m, refMed))
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "peak resident memory (kB), median:")
	for i, p := range progs {
		var kb []float64
		for _, s := range samples[i] {
			kb = append(kb, float64(s.maxRSS))
		}
		slices.Sort(kb)
		fmt.Fprintf(w, "  %-12s %7.0f\n", p.name, kb[len(kb)/2])
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(ss []sample, get func(sample) time.Duration) float64 {
	v := values(ss, get)
	if len(v) == 0 {
		return 0
	}
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

func span(ss []sample, get func(sample) time.Duration) (float64, float64) {
	v := values(ss, get)
	if len(v) == 0 {
		return 0, 0
	}
	return v[0], v[len(v)-1]
}

func values(ss []sample, get func(sample) time.Duration) []float64 {
	var v []float64
	for _, s := range ss {
		v = append(v, ms(get(s)))
	}
	slices.Sort(v)
	return v
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}
