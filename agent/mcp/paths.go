package mcp

import (
	"os"
	"path/filepath"
)

// EnvConfig names the configuration file when --mcp-config is not given.
const EnvConfig = "FOLLOWUP_MCP_CONFIG"

// ConfigPath picks the configuration file (DESIGN §14): the --mcp-config flag, else
// $FOLLOWUP_MCP_CONFIG, else $XDG_CONFIG_HOME/followup/mcp.json, else
// ~/.config/followup/mcp.json. explicit reports that the user named the file, so its
// absence is a problem; a missing default file only means no servers.
func ConfigPath(flag string, getenv func(string) string) (path string, explicit bool) {
	if flag != "" {
		return flag, true
	}
	if p := getenv(EnvConfig); p != "" {
		return p, true
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "followup", "mcp.json"), false
	}
	return filepath.Join(home(getenv), ".config", "followup", "mcp.json"), false
}

// StateDir is where server logs go: $XDG_STATE_HOME/followup, else
// ~/.local/state/followup.
func StateDir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "followup")
	}
	return filepath.Join(home(getenv), ".local", "state", "followup")
}

func home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "."
}

// LoadFor loads the configuration followup runs with: the --mcp-config value (or "")
// resolved as ConfigPath says, expanded with the process environment.
func LoadFor(flag string) Config {
	path, explicit := ConfigPath(flag, os.Getenv)
	return Load(path, explicit, os.LookupEnv)
}
