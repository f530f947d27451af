package mcp

// Status is a snapshot of the configuration and every server, for `followup mcp list
// [--json]` and the screen. It holds no secret: targets are shown as written in the file.
type Status struct {
	Config   string         `json:"config"`
	Problems []string       `json:"problems"`
	Servers  []ServerStatus `json:"servers"`
}

// ServerStatus is one server's state.
type ServerStatus struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Target is the command line or URL as written, before ${VAR} expansion.
	Target   string `json:"target"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
	Protocol string `json:"protocolVersion,omitempty"`
	// ServerName and ServerVersion are the server's own serverInfo, when it sent one.
	ServerName    string `json:"serverName,omitempty"`
	ServerVersion string `json:"serverVersion,omitempty"`
	// RestartsOnCall: a failed server whose connection ended by itself;
	// the next call of one of its tools starts it again.
	RestartsOnCall bool `json:"restartsOnCall,omitempty"`
	// Tools are a connected server's, listed without their input schemas.
	Tools []Tool `json:"tools"`
	// Resources are a connected server's (resources/list, bounded).
	Resources []Resource `json:"resources,omitempty"`
	// Prompts are a connected server's prompts (`followup mcp prompts`).
	Prompts []Prompt `json:"prompts"`
	Log     string   `json:"log"`
	// LogTail is the last lines its log got in this process (stderr, log messages).
	LogTail []string `json:"logTail,omitempty"`
}

// Words say the server's state in a sentence after its name ("MCP server x failed:
// …", "MCP server x is still starting").
func (s ServerStatus) Words() string {
	var w string
	switch s.State {
	case StateFailed:
		w = "failed"
	case StateConnecting:
		w = "is still starting"
	case StateDisabled:
		w = "is disabled in the configuration"
	default:
		w = "is " + s.State
	}
	if s.Reason != "" {
		w += ": " + s.Reason
	}
	return w
}

// Connected counts the servers that are connected, of those not disabled
// (the status line's "2/3 MCP").
func (s Status) Connected() (n, of int) {
	for _, srv := range s.Servers {
		if srv.State != StateDisabled {
			of++
		}
		if srv.State == StateConnected {
			n++
		}
	}
	return n, of
}

// Status takes a snapshot.
func (m *Manager) Status() Status {
	st := Status{Config: m.config, Problems: append(append([]string{}, m.problems...), m.clashes()...), Servers: []ServerStatus{}}
	for _, s := range m.servers {
		s.mu.Lock()
		ss := ServerStatus{Name: s.cfg.Name, Type: s.cfg.Type, Target: s.cfg.Shown, State: s.state,
			Reason: s.reason, Protocol: s.protocol, Tools: []Tool{}, Prompts: []Prompt{}, Log: s.logPath,
			RestartsOnCall: s.state == StateFailed && s.restart.lost && !s.closed}
		if s.log != nil {
			ss.LogTail = s.log.Tail()
		}
		if s.info != nil {
			ss.ServerName, ss.ServerVersion = s.info.Name, s.info.Version
		}
		if s.state == StateConnected {
			for _, t := range s.tools {
				t.InputSchema = nil
				ss.Tools = append(ss.Tools, t)
			}
			ss.Resources = s.resources
			ss.Prompts = append(ss.Prompts, s.prompts...)
		}
		s.mu.Unlock()
		st.Servers = append(st.Servers, ss)
	}
	return st
}
