package mcp

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// A stdio server runs in its own process group, which closing a session
// ends. If followup dies without closing (SIGKILL, a crash), nothing would
// end the group, and servers that ignore the end of their stdin (as
// server-everything does) would run on forever. So each group gets a
// guard: a shell in the group, reading a pipe whose write end only
// followup holds. When followup dies, however it dies, the kernel closes
// that end; the guard's read ends and it kills the group, itself included.

// guardScript waits for the end of its stdin, then kills process group $1.
const guardScript = `read _; kill -KILL -"$1" 2>/dev/null`

// startGuard starts the guard of the group led by pid and returns the
// pipe end followup keeps open (nil when no guard could start: the group
// is then ended only by closing).
func startGuard(pid int) *os.File {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", guardScript, "guard", strconv.Itoa(pid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pid}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	go cmd.Wait() // reaped when it ends, with the group or on its own
	return w
}
