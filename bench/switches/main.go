// Command switches measures what switching chats costs the host, in one
// process as the chat screen does it: the memory the process holds
// (resident set, mapped database pages included) and the CPU time per
// switch. A switch reads the chat list, the next chat's first frame (its
// newest transcript page, open requests and their drafts) and what waits
// elsewhere.
//
//	go run ./bench/switches -db /tmp/big.db -n 100
//
// The database is opened as it is (make a copy: opening it may migrate it).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"followup/chat"
)

func main() {
	db := flag.String("db", "", "database to open")
	n := flag.Int("n", 100, "chat switches")
	page := flag.Int("page", 60, "transcript messages a chat's first frame reads")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "switches: -db PATH is required")
		os.Exit(2)
	}
	if err := run(*db, *n, *page); err != nil {
		fmt.Fprintln(os.Stderr, "switches:", err)
		os.Exit(1)
	}
}

func run(db string, n, page int) error {
	ctx := context.Background()
	report("start")
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		return err
	}
	defer svc.Close()
	first, err := svc.LatestChatID(ctx)
	if err != nil {
		return err
	}
	if _, err := svc.Screen(ctx, first, page); err != nil {
		return err
	}
	report("first chat")
	// Every chat of the list, in turn, as far as n goes.
	var ids []string
	for after := ""; len(ids) < n; {
		p, err := svc.ChatList(ctx, after, 0)
		if err != nil {
			return err
		}
		for _, c := range p.Chats {
			ids = append(ids, c.ID)
		}
		if !p.More {
			break
		}
		after = p.Next
	}
	cpu0, wall0 := cpuTime(), time.Now()
	for i := range n {
		if err := switchTo(ctx, svc, ids[i%len(ids)], page); err != nil {
			return err
		}
	}
	cpu, wall := cpuTime()-cpu0, time.Since(wall0)
	report(fmt.Sprintf("after %d switches", n))
	fmt.Printf("per switch: %.2f ms CPU, %.2f ms wall\n",
		float64(cpu.Microseconds())/1000/float64(n), float64(wall.Microseconds())/1000/float64(n))
	return nil
}

func switchTo(ctx context.Context, svc *chat.Service, id string, page int) error {
	if _, err := svc.ChatList(ctx, "", 0); err != nil {
		return err
	}
	sc, err := svc.Screen(ctx, id, page)
	if err != nil {
		return err
	}
	for _, r := range sc.Pending {
		if _, _, err := svc.LoadDraft(ctx, r.ID, r.Revision); err != nil {
			return err
		}
	}
	if _, err := svc.PendingElsewhere(ctx, id); err != nil {
		return err
	}
	_, err = svc.Orphaned(ctx)
	return err
}

// report prints the resident set (all, anonymous, file-backed — mapped
// database pages are file-backed) and the live Go heap.
func report(when string) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	st, _ := os.ReadFile("/proc/self/status")
	field := func(name string) string {
		for _, l := range strings.Split(string(st), "\n") {
			if v, ok := strings.CutPrefix(l, name+":"); ok {
				return strings.TrimSpace(v)
			}
		}
		return "?"
	}
	fmt.Printf("%-20s RSS %s (anon %s, file %s), Go heap %.1f MB\n", when+":", field("VmRSS"),
		field("RssAnon"), field("RssFile"), float64(ms.HeapAlloc)/(1<<20))
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
