// Package mcp is followup's MCP client (docs/mcp.md): it reads the servers a user
// configured (Claude Code's .mcp.json shape), runs one client per server — stdio servers
// in their own process group, streamable HTTP servers through a header-adding
// RoundTripper — and offers their tools as `mcp__<server>__<tool>`. Elicitations are
// handed to the host through the Elicitor interface; input_required results come back to
// the caller to store and retry. Policy (approvals, durability, what the user sees) is
// chat's.
package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// Transport types of a server entry.
const (
	TypeStdio = "stdio"
	TypeHTTP  = "http"
)

const (
	defaultTimeout = 10 * time.Second
	maxTimeout     = 10 * time.Minute
	maxConfigBytes = 8 << 20
)

// ServerConfig is one entry of mcpServers with its ${VAR} references expanded. Env and
// Headers hold secrets: they are never logged, shown or stored (String redacts them).
type ServerConfig struct {
	Name    string
	Type    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
	// Shown is the command line or URL as written in the file, before expansion, so that
	// status and logs can name the server without printing an expanded secret.
	Shown       string
	AutoApprove AutoApprove
	Disabled    bool
	// Timeout bounds connecting (the file's `timeout`, in seconds; default 10).
	Timeout time.Duration
	// LogLevel is the level followup asks of a server that logs (`logLevel`; default info).
	LogLevel string
	// Secrets hides the values of the entry's ${VAR}s in what is shown, stored or logged.
	Secrets Secrets
}

// String names the server without its secrets.
func (c ServerConfig) String() string { return c.Name + " (" + c.Type + " " + c.Shown + ")" }

// AutoApprove is an entry's `autoApprove`: true, or a list of the server's tool names.
type AutoApprove struct {
	All   bool
	Tools []string
}

// Allows reports whether a call of the server's tool (its own name, not the
// mcp__server__tool one) needs no approval.
func (a AutoApprove) Allows(tool string) bool { return a.All || slices.Contains(a.Tools, tool) }

// Config is a loaded configuration: the servers that are well-formed, sorted by name, and
// one Problem per entry (or file) that is not.
type Config struct {
	Path     string
	Servers  []ServerConfig
	Problems []Problem
	// Roots are the directories followup declares to every server (docs/mcp.md): the
	// config's top-level "roots" (relative to the file) and those the caller adds.
	Roots []string
}

// Problem is one thing wrong with a configuration, reported in one line.
type Problem struct {
	File    string
	Pointer string // JSON Pointer into the file; "" for the file as a whole
	Reason  string
}

func (p Problem) Error() string {
	if p.Pointer == "" {
		return p.File + ": " + p.Reason
	}
	return p.File + ": " + p.Pointer + ": " + p.Reason
}

// Load reads the configuration at path. A missing file is no problem when it is only the
// default location (explicit false); a file the user named must exist.
func Load(path string, explicit bool, lookup Lookup) Config {
	cfg := Config{Path: path}
	if path == "" && !explicit {
		return cfg // no default location (no home directory): no servers
	}
	data, err := readBounded(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !explicit {
			return cfg
		}
		cfg.Problems = append(cfg.Problems, Problem{File: path, Reason: err.Error()})
		return cfg
	}
	cfg.Servers, cfg.Problems = Parse(path, data, lookup)
	var doc struct {
		Roots json.RawMessage `json:"roots"`
	}
	if json.Unmarshal(data, &doc) == nil && doc.Roots != nil {
		if err := json.Unmarshal(doc.Roots, &cfg.Roots); err != nil || slices.Contains(cfg.Roots, "") {
			cfg.Roots = nil
			cfg.Problems = append(cfg.Problems, Problem{File: path, Pointer: "/roots", Reason: "not a list of directory paths"})
		}
		for i, r := range cfg.Roots {
			if !filepath.IsAbs(r) {
				cfg.Roots[i] = filepath.Join(filepath.Dir(path), r)
			}
		}
	}
	return cfg
}

// readBounded reads a regular file of at most 8 MiB, refusing more while reading. It
// opens without blocking, so that a FIFO is refused rather than waited on.
func readBounded(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("more than 8 MiB")
	}
	return data, nil
}

// Parse reads a configuration document. file only names it in problems.
func Parse(file string, data []byte, lookup Lookup) ([]ServerConfig, []Problem) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, []Problem{{File: file, Reason: jsonReason(data, err)}}
	}
	raw, ok := doc["mcpServers"]
	if !ok {
		return nil, []Problem{{File: file, Reason: `no "mcpServers" object`}}
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || entries == nil {
		return nil, []Problem{{File: file, Pointer: "/mcpServers", Reason: "not an object"}}
	}
	names := slices.Sorted(maps.Keys(entries))
	var servers []ServerConfig
	var problems []Problem
	for _, name := range names {
		ptr := "/mcpServers/" + pointerToken(name)
		sc, p := parseServer(name, entries[name], lookup)
		if p != nil {
			p.File, p.Pointer = file, ptr+p.Pointer
			problems = append(problems, *p)
			continue
		}
		servers = append(servers, sc)
	}
	return servers, problems
}

// jsonReason says where a document stops being JSON, by line and column.
func jsonReason(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		line, col := 1, 1
		for _, c := range data[:max(0, min(int(se.Offset)-1, len(data)))] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Sprintf("not valid JSON at line %d, column %d: %v", line, col, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "the file must hold one JSON object"
	}
	return "not valid JSON: " + err.Error()
}
