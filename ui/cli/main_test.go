package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// bin is the followup binary built once for the end-to-end tests;
// peakRSSBin runs a command and reports its own peak memory
// (testdata/peakrss).
var bin, peakRSSBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "followup-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "followup")
	peakRSSBin = filepath.Join(dir, "peakrss")
	for out, pkg := range map[string]string{bin: "followup", peakRSSBin: "./testdata/peakrss"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", pkg+":", err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
