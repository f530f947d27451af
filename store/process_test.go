package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

const (
	childDBEnv      = "FOLLOWUP_STORE_CHILD_DB"
	childStartEnv   = "FOLLOWUP_STORE_CHILD_START" // unix nanoseconds: children start together
	childChatIDEnv  = "FOLLOWUP_STORE_CHILD_CHAT"
	createTogetherN = 32
)

// TestStoreChild is not a test: as a child process it opens the database
// named in its environment and writes one chat.
func TestStoreChild(t *testing.T) {
	path := os.Getenv(childDBEnv)
	if path == "" {
		t.Skip("the child of the process tests")
	}
	if at, err := strconv.ParseInt(os.Getenv(childStartEnv), 10, 64); err == nil {
		time.Sleep(time.Until(time.Unix(0, at)))
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	id := os.Getenv(childChatIDEnv)
	err = s.Write(ctx, func(tx Handle) error {
		return qs.InsertChat(ctx, tx, Chat{ID: id, Title: id, State: ChatActive, CreatedAt: 1, UpdatedAt: 1})
	})
	s.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Many processes creating one database at once all get it, none sees
// SQLITE_BUSY, and the file they make is marked followup's.
func TestManyProcessesCreateOneDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "together.db")
	start := time.Now().Add(time.Second).UnixNano()
	var wg sync.WaitGroup
	errs := make([]string, createTogetherN)
	for i := range createTogetherN {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreChild$")
		cmd.Env = append(os.Environ(), childDBEnv+"="+path, childStartEnv+"="+strconv.FormatInt(start, 10),
			childChatIDEnv+"=ch_"+strconv.Itoa(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("child %d: %s", i, e)
		}
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var chats int
	var check string
	s.r.QueryRow("SELECT COUNT(*) FROM chats").Scan(&chats)
	s.r.QueryRow("PRAGMA integrity_check").Scan(&check)
	if chats != createTogetherN || check != "ok" {
		t.Fatalf("%d chats, integrity %s", chats, check)
	}
	if got := appID(t, path); got != ApplicationID {
		t.Fatalf("application_id %#x", got)
	}
}
