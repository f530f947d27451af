// Command peakrss runs a command and prints its peak resident memory in
// KiB, then exits with the command's exit code. The tests run commands
// through it because a child's peak RSS counts its parent's resident
// memory at the exec (the parent is a big test binary, bigger still under
// -race); from this small process, what is printed is the command's own.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(125)
	}
	fmt.Fprintf(os.Stderr, "peakrss %d\n", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	os.Exit(cmd.ProcessState.ExitCode())
}
