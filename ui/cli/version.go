package cli

import (
	"runtime/debug"
	"strings"
)

// version is set at link time when a release is built
// (-ldflags "-X followup/ui/cli.version=v1.2.3"); otherwise Version reads
// what the Go toolchain recorded in the binary.
var version = ""

// Version is followup's version: the release, the module version `go
// install followup@VERSION` recorded, or, for a build from a checkout, the
// commit it was built from ("devel 0123456789ab, modified").
func Version() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified, at string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			at = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	parts := []string{"devel " + rev[:min(12, len(rev))]}
	if at != "" {
		parts = append(parts, at)
	}
	if modified == "true" {
		parts = append(parts, "modified")
	}
	return strings.Join(parts, ", ")
}
