package chat_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/chat"
)

// nobody is the user a root test runs its read-only children as: root may
// write any file whatever its mode.
const nobody = 65534

// TestReadOnlyDatabase: a database this process may not write still shows
// everything, and each write is refused with DATABASE_READ_ONLY naming the
// file; nothing in or beside it changes.
func TestReadOnlyDatabase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		fileRO, dirRO     bool
		wantReasonContain string
	}{
		{"read-only file", true, false, "the file's permissions"},
		{"read-only directory", false, true, "is not writable"},
		{"both", true, true, "the file's permissions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := os.Geteuid() == 0
			top := t.TempDir()
			os.Chmod(filepath.Dir(top), 0o755) // the test's own temporary root
			os.Chmod(top, 0o755)
			dir := filepath.Join(top, "data")
			db := filepath.Join(dir, "followup.db")
			f := &fuCLI{t: t, db: db}
			asked := f.ok(nil, "ask", "Deploy the release")
			reqID := str(asked.JSON, "pending", 0, "id")
			os.Remove(db + "-lease") // a fresh machine: nothing beside the file
			bin := followupBinary(t, "")
			if root {
				// The child runs as nobody: it needs a binary it may run,
				// and ownership stands in for the permission bits.
				bin = copyExecutable(t, bin, filepath.Join(top, "followup"))
				if !tc.fileRO {
					os.Chown(db, nobody, nobody)
				}
				if !tc.dirRO {
					os.Chown(dir, nobody, nobody)
				}
				os.Chmod(dir, 0o755)
				os.Chmod(db, 0o644)
			} else {
				if tc.fileRO {
					os.Chmod(db, 0o400)
				}
				if tc.dirRO {
					os.Chmod(dir, 0o500)
					t.Cleanup(func() { os.Chmod(dir, 0o700) })
				}
			}
			before, _ := os.ReadFile(db)
			run := func(args ...string) (int, map[string]any, string) {
				var out, errOut bytes.Buffer
				for try := 0; ; try++ {
					cmd := exec.Command(bin, append([]string{"--db", db, "--json"}, args...)...)
					cmd.Env = childEnv()
					if root {
						cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
					}
					out.Reset()
					errOut.Reset()
					cmd.Stdout, cmd.Stderr = &out, &errOut
					err := cmd.Run()
					// A binary just copied may still be open for writing in
					// another test's fork: exec then says ETXTBSY.
					if errors.Is(err, syscall.ETXTBSY) && try < 50 {
						time.Sleep(20 * time.Millisecond)
						continue
					}
					if cmd.ProcessState == nil {
						t.Fatalf("followup did not start: %v", err)
					}
					var doc map[string]any
					json.Unmarshal(out.Bytes(), &doc)
					return cmd.ProcessState.ExitCode(), doc, fmt.Sprint(err) + " " + out.String() + errOut.String()
				}
			}
			if code, doc, out := run("pending"); code != 0 || str(doc, "requests", 0, "id") != reqID {
				t.Fatalf("pending on a read-only database: exit %d %s", code, out)
			}
			for _, args := range [][]string{
				{"answer", reqID, "--values-json", `{"environment":"staging"}`},
				{"ask", "Deploy again"},
				{"cancel", reqID},
			} {
				code, doc, out := run(args...)
				msg := str(doc, "error", "message")
				if code != 1 || str(doc, "error", "code") != chat.CodeDatabaseReadOnly || !strings.Contains(msg, db) ||
					!strings.Contains(msg, tc.wantReasonContain) {
					t.Errorf("%s: exit %d %s", args[0], code, out)
				}
			}
			if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
				t.Error("the read-only database changed")
			}
			if es, _ := os.ReadDir(dir); len(es) != 1 {
				t.Errorf("files appeared beside the database: %v", es)
			}
		})
	}
}

func copyExecutable(t *testing.T, from, to string) string {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return to
}
