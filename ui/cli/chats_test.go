package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chats pages through every chat: following next (JSON) or the command
// the text prints reads each chat once, newest first; nothing is capped
// silently.
func TestChatsPagesThroughEveryChat(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	var want []string
	for _, msg := range []string{"one", "two", "three", "four", "five"} {
		want = append([]string{decode(t, runCLI(t, db, "ask", msg, "--json"))["chatId"].(string)}, want...)
	}
	var got []string
	args := []string{"chats", "--limit", "2", "--json"}
	for pages := 1; ; pages++ {
		doc := decode(t, runCLI(t, db, args...))
		for _, c := range doc["chats"].([]any) {
			got = append(got, c.(map[string]any)["id"].(string))
		}
		next, more := doc["next"].(string)
		if doc["more"] != more || pages > 3 {
			t.Fatalf("page %d: more %v, next %q", pages, doc["more"], next)
		}
		if !more {
			break
		}
		args = []string{"chats", "--limit", "2", "--cursor", next, "--json"}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("JSON pages: %v, want %v", got, want)
	}

	// Text: each page ends with the command that reads the next one.
	got = nil
	args = []string{"chats", "--limit", "3"}
	for {
		r := runCLI(t, db, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d, %s", args, r.code, r.stderr)
		}
		var next string
		for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if cmd, ok := strings.CutPrefix(line, "more chats follow: followup "); ok {
				next = cmd
			} else {
				got = append(got, strings.Fields(line)[0])
			}
		}
		if next == "" {
			break
		}
		if len(got) > len(want) {
			t.Fatalf("the pages do not end: %v", got)
		}
		args = strings.Fields(next)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("text pages: %v, want %v", got, want)
	}

	// The default page holds all five; a limit or cursor no page can have
	// is a usage error.
	if doc := decode(t, runCLI(t, db, "chats", "--json")); len(doc["chats"].([]any)) != 5 || doc["more"] != false {
		t.Fatalf("default page: %v", doc)
	}
	for _, bad := range [][]string{{"--limit", "0"}, {"--limit", "1001"}, {"--limit", "x"}, {"--cursor", "nope"}} {
		if r := runCLI(t, db, append([]string{"chats"}, bad...)...); r.code != 2 || !strings.Contains(r.stderr, "usage: followup chats") {
			t.Errorf("chats %v: exit %d, %q", bad, r.code, r.stderr)
		}
	}
}

// unarchive makes an archived chat active again: its question is pending
// again and it takes messages; a retry with the same command id returns
// the first result.
func TestUnarchive(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "u.db")
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	id := ask["chatId"].(string)
	if r := runCLI(t, db, "archive", id); r.code != 0 || r.stdout != "chat "+id+" archived\n" {
		t.Fatalf("archive: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if ids, _ := pendingIDs(t, db, true); len(ids) != 0 {
		t.Fatalf("an archived chat's question is pending: %v", ids)
	}
	r := runCLI(t, db, "unarchive", id, "--command-id", "u-1", "--json")
	chat, _ := decode(t, r)["chat"].(map[string]any)
	if r.code != 0 || chat["id"] != id || chat["state"] != "active" {
		t.Fatalf("unarchive: %d %s", r.code, r.stdout)
	}
	if again := runCLI(t, db, "unarchive", id, "--command-id", "u-1", "--json"); again.code != 0 || again.stdout != r.stdout {
		t.Fatalf("the retry: %d %s", again.code, again.stdout)
	}
	if ids, _ := pendingIDs(t, db, true); len(ids) != 1 {
		t.Fatalf("pending after unarchive: %v", ids)
	}
	if r := runCLI(t, db, "ask", "use staging", "--chat", id); r.code != 0 {
		t.Fatalf("ask in the unarchived chat: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, db, "unarchive", id); r.code != 0 || r.stdout != "chat "+id+" unarchived\n" {
		t.Fatalf("text: %d %q", r.code, r.stdout)
	}
	if r := runCLI(t, db, "unarchive", "ch_nope", "--json"); r.code != 1 || decode(t, r)["error"].(map[string]any)["code"] != "NOT_FOUND" {
		t.Fatalf("unknown chat: %d %s", r.code, r.stdout)
	}
}

// chats' text shows each chat's last activity and how many questions
// wait, as the JSON does.
func TestChatsTextShowsActivityAndQuestions(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "a.db")
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	r := runCLI(t, db, "chats")
	c := decode(t, runCLI(t, db, "chats", "--json"))["chats"].([]any)[0].(map[string]any)
	at, _ := time.Parse(time.RFC3339, c["updatedAt"].(string))
	want := fmt.Sprintf("%s  active    %s  1 question   Check deployment\n", ask["chatId"], at.Local().Format("2006-01-02 15:04"))
	if r.code != 0 || r.stdout != want {
		t.Fatalf("chats: exit %d\n%q\nwant %q", r.code, r.stdout, want)
	}
}

// delete asks on a terminal and deletes only on yes; without a terminal
// it needs --yes, and says so.
func TestDeleteAsksFirst(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "d.db")
	id := decode(t, runCLI(t, db, "ask", "Plan a trip", "--json"))["chatId"].(string)
	if r := runCLI(t, db, "delete", id); r.code != 2 || !strings.Contains(r.stderr, "add --yes to delete "+id+" without asking") {
		t.Fatalf("delete without a terminal: exit %d, %q", r.code, r.stderr)
	}
	for _, answer := range []string{"n", "", "y"} {
		master, slave := openPTY(t)
		cmd := exec.Command(bin, "--db", db, "delete", id)
		cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		slave.Close()
		var out bytes.Buffer
		go io.Copy(&out, master)
		io.WriteString(master, answer+"\n")
		err := cmd.Wait()
		deleted := decode(t, runCLI(t, db, "chats", "--json"))["chats"].([]any)
		if (answer == "y") != (err == nil) || (answer == "y") != (len(deleted) == 0) {
			t.Fatalf("answer %q: %v, chats left %d", answer, err, len(deleted))
		}
	}
	if r := runCLI(t, db, "delete", decode(t, runCLI(t, db, "ask", "x", "--json"))["chatId"].(string), "--yes"); r.code != 0 {
		t.Fatalf("delete --yes: exit %d, %q", r.code, r.stderr)
	}
}
