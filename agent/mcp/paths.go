package mcp

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
)

// EnvConfig names the configuration file when --mcp-config is not given.
const EnvConfig = "FOLLOWUP_MCP_CONFIG"

// ConfigPath picks the configuration file (docs/mcp.md): the --mcp-config flag, else
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
	h := UserHome(getenv)
	if h == "" {
		return "", false // no home: no default file, so no servers unless named
	}
	return filepath.Join(h, ".config", "followup", "mcp.json"), false
}

// StateDir is where server logs go: $XDG_STATE_HOME/followup, else
// ~/.local/state/followup, else (no home) a folder of this user's in the
// system's temporary directory — never one relative to where followup runs.
func StateDir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "followup")
	}
	if h := UserHome(getenv); h != "" {
		return filepath.Join(h, ".local", "state", "followup")
	}
	return filepath.Join(os.TempDir(), "followup-state-"+strconv.Itoa(os.Getuid()))
}

// UserHome is the user's home directory as every default path of
// followup's uses it (the database, the MCP configuration, the servers'
// logs): $HOME when it is an absolute path, else the one the password file
// gives, else "" (a cron job or service without one). A relative or empty
// HOME would put followup's files wherever it happens to run.
func UserHome(getenv func(string) string) string {
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return h
	}
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		return u.HomeDir
	}
	return ""
}

// LoadFor loads the configuration followup runs with: the --mcp-config value (or "")
// resolved as ConfigPath says, expanded with the process environment.
func LoadFor(flag string) Config {
	path, explicit := ConfigPath(flag, os.Getenv)
	return Load(path, explicit, os.LookupEnv)
}
