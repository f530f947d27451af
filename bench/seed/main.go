// Command seed builds a large, realistic followup database for benchmarks:
//
//	go run ./bench/seed -db /tmp/big.db
//
// The defaults are the sizes docs/performance.md budgets name (1,000 chats, 100,000
// messages, 10,000 requests); the same -seed always builds the same data.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"time"

	"followup/bench/dataset"
	"followup/store"
)

func main() {
	sz := dataset.Default()
	db := flag.String("db", "", "database file to create (must not exist)")
	flag.IntVar(&sz.Chats, "chats", sz.Chats, "chats")
	flag.IntVar(&sz.Messages, "messages", sz.Messages, "messages in all chats")
	flag.IntVar(&sz.Requests, "requests", sz.Requests, "input requests in all chats")
	flag.IntVar(&sz.BigChat, "big-chat", sz.BigChat, "messages in the newest chat")
	flag.IntVar(&sz.Pending, "pending", sz.Pending, "percentage of requests still pending")
	flag.Uint64Var(&sz.Seed, "seed", sz.Seed, "random seed")
	flag.BoolVar(&sz.BigFirst, "big-first", false, "the newest chat shows its 32-field form first")
	prof := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seed:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *db == "" {
		fmt.Fprintln(os.Stderr, "seed: -db PATH is required")
		os.Exit(2)
	}
	if _, err := os.Stat(*db); err == nil {
		fmt.Fprintf(os.Stderr, "seed: %s exists; give a new path\n", *db)
		os.Exit(2)
	}
	start := time.Now()
	ctx := context.Background()
	st, err := store.Open(ctx, *db)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
	sum, err := dataset.Build(ctx, st, sz)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
	fmt.Printf("seeded %s in %s: %d chats, %d runs, %d messages, %d requests\n",
		*db, time.Since(start).Round(time.Millisecond), sum.Chats, sum.Runs, sum.Messages, sum.Requests)
	states := make([]string, 0, len(sum.States))
	for s := range sum.States {
		states = append(states, s)
	}
	sort.Strings(states)
	for _, s := range states {
		fmt.Printf("  %-30s %d\n", s, sum.States[s])
	}
	fmt.Printf("newest chat %s, its pending 32-field request %s\n", sum.BigChatID, sum.BigRequestID)
}
