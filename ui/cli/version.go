package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at link time when a release is built
// (-ldflags "-X followup/ui/cli.version=v1.2.3"); otherwise the version is
// what the Go toolchain recorded in the binary.
var version = ""

// Build is what followup knows of its own build, as --version prints it.
type Build struct {
	// Version is the release, or the module version the toolchain
	// recorded — `go install followup@v1.4.0`, or for a build in a git
	// checkout the pseudo-version of its commit
	// (v0.0.0-20261201123110-57bc2793108c+dirty) — else "devel".
	Version string `json:"version"`
	// Revision is the commit a build from a git checkout was made from
	// (whole, as `go build` stamps it), Time that commit's time and
	// Modified that the checkout had changes; Revision is "" when the
	// toolchain recorded none (`go run`, -buildvcs=false, a git worktree).
	Revision string `json:"revision"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`
}

// String is the version in one phrase: "v1.4.0", "devel 0123456789ab",
// "devel 0123456789ab+dirty", or "devel" when nothing was recorded. The
// MCP handshakes name followup with it.
func (b Build) String() string {
	if b.Version != "devel" || b.Revision == "" {
		return b.Version
	}
	s := "devel " + b.Revision[:min(12, len(b.Revision))]
	if b.Modified {
		s += "+dirty"
	}
	return s
}

// text is the line --version prints: the phrase, then the commit's time
// and the toolchain.
func (b Build) text(w io.Writer) {
	if b.Time != "" && b.Version == "devel" {
		fmt.Fprintf(w, "followup %s (%s, %s)\n", b, b.Time, b.Go)
		return
	}
	fmt.Fprintf(w, "followup %s (%s)\n", b, b.Go)
}

// Version is followup's version phrase (Build.String).
func Version() string { return ReadBuild().String() }

// ReadBuild reads what the binary records of its build.
func ReadBuild() Build {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	b := buildOf(info)
	if version != "" {
		b.Version = version
	}
	return b
}

func buildOf(info *debug.BuildInfo) Build {
	b := Build{Version: "devel", Go: info.GoVersion}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			b.Time = s.Value
		}
	}
	return b
}
