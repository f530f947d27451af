// Package conformancehost runs the MCP conformance suite's client scenarios
// through followup's whole host: `conformance client --command <the test
// binary> --scenario NAME` starts a scenario server and runs the test binary
// with its URL as the last argument and the scenario in
// MCP_CONFORMANCE_SCENARIO, which makes it the host.
//
// The server is an mcpServers entry of type http. Each tool the scenario
// expects is called the way a user of followup calls it: the demo agent's
// `call conformance.TOOL {args}` in a chat, through chat.Service's durable
// steps, and every question the server asks is answered through the
// service's own input path (Answer) like a user confirming the form as it
// is drawn (prefilled from the schema's defaults).
//
// With CONFORMANCE_HOST_CRASH=1 each call is first driven by a child
// process that is killed (SIGKILL) once the call waits for input in the
// database; this process then finds the question still answerable,
// answers it and drives the run, so the retried call carries the reply and
// the exact requestState across the crash.
package conformancehost

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"
)

// calls are the tool calls each scenario expects; a scenario not listed
// only connects and lists tools.
var calls = map[string][]struct{ tool, args string }{
	"tools_call":                          {{"add_numbers", `{"a":5,"b":3}`}},
	"elicitation-sep1034-client-defaults": {{"test_client_elicitation_defaults", `{}`}},
	"sep-2322-client-request-state": {
		{"test_mrtr_echo_state", `{}`}, {"test_mrtr_no_state", `{}`},
		{"test_mrtr_unrelated", `{}`}, {"test_mrtr_no_result_type", `{}`},
	},
}

const (
	envCrash    = "CONFORMANCE_HOST_CRASH"
	envChild    = "CONFORMANCE_HOST_CHILD" // the child's database; its message is in envChildMsg
	envChildMsg = "CONFORMANCE_HOST_CHILD_MESSAGE"
	// envKills names a file where each kill is noted (the runner shows a
	// client's output only when it fails).
	envKills = "CONFORMANCE_HOST_KILLS"
)

// TestMain is the host when the conformance runner (or the host, for its
// child) started this binary, and the tests otherwise.
func TestMain(m *testing.M) {
	scenario, db := os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Getenv(envChild)
	if scenario == "" && db == "" {
		os.Exit(m.Run())
	}
	url := os.Args[len(os.Args)-1]
	var err error
	if db != "" {
		err = child(url, db, os.Getenv(envChildMsg))
	} else {
		err = run(scenario, url, os.Getenv(envCrash) == "1")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformancehost:", err)
		os.Exit(1)
	}
}

// open opens the service on db with the scenario's server.
func open(ctx context.Context, url, db string) (*chat.Service, error) {
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"conformance": map[string]any{"type": "http", "url": url, "timeout": 20, "autoApprove": true}}})
	servers, problems := mcp.Parse("conformance.json", doc, os.LookupEnv)
	if len(problems) > 0 {
		return nil, problems[0]
	}
	cfg := mcp.Config{Path: "conformance.json", Servers: servers}
	return chat.Open(ctx, chat.Options{DBPath: db, MCP: chat.MCPOptions{Config: &cfg, Version: "1", LogDir: filepath.Dir(db)}})
}

func run(scenario, url string, crash bool) error {
	dir, err := os.MkdirTemp("", "followup-conformance-host-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "followup.db")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	for _, c := range calls[scenario] {
		msg := "call conformance." + c.tool + " " + c.args
		var runID string
		if crash {
			if runID, err = crashWhileWaiting(ctx, url, db, msg); err != nil {
				return fmt.Errorf("%s: %w", c.tool, err)
			}
		}
		text, err := finish(ctx, url, db, msg, runID)
		if err != nil {
			return fmt.Errorf("%s: %w", c.tool, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %s\n", c.tool, text)
	}
	if len(calls[scenario]) == 0 {
		s, err := open(ctx, url, db)
		if err != nil {
			return err
		}
		defer s.Close()
		if err := s.WaitMCP(ctx); err != nil {
			return err
		}
		st := s.MCPStatus().Servers[0]
		fmt.Fprintf(os.Stderr, "%s on %s with %d tools\n", st.State, st.Protocol, len(st.Tools))
	}
	return nil
}

// finish drives the call to its end in this process — sending it first
// when runID is "" — answering every question the server asks.
func finish(ctx context.Context, url, db, msg, runID string) (string, error) {
	s, err := open(ctx, url, db)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if runID == "" {
		sent, err := s.Send(ctx, "", msg, "")
		if err != nil {
			return "", err
		}
		runID = sent.RunID
	} else if err := answerAll(ctx, s, runID); err != nil {
		return "", err // the question the killed child left, still answerable
	}
	for round := 0; round < 10; round++ {
		done := make(chan error, 1)
		go func() {
			_, err := s.Drive(ctx, runID)
			done <- err
		}()
		// Questions asked during the call wait for an answer while the
		// drive holds the connection; durable ones wait after it.
		var derr error
	wait:
		for {
			select {
			case derr = <-done:
				break wait
			case <-time.After(50 * time.Millisecond):
				if err := answerAll(ctx, s, runID); err != nil {
					return "", err
				}
			}
		}
		if derr != nil {
			return "", derr
		}
		v, err := s.GetRun(ctx, runID)
		if err != nil {
			return "", err
		}
		if v.State == "running" {
			// Another drive holds the run (the one an answer started):
			// this round's drive found it taken; wait for that one.
			round--
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		if v.State != "waiting_input" {
			return stepText(ctx, s, v)
		}
		if err := answerAll(ctx, s, runID); err != nil {
			return "", err
		}
	}
	return "", errors.New("the run still waits after 10 rounds")
}

// stepText is the tool's result as the run recorded it.
func stepText(ctx context.Context, s *chat.Service, v chat.RunView) (string, error) {
	in, err := s.Inspect(ctx, v.ChatID)
	if err != nil {
		return "", err
	}
	var steps []chat.ToolStepView
	for _, m := range in.Messages {
		if m.Role == chat.RoleToolStep {
			st, err := s.ToolStep(ctx, m.RunID, m.ToolCallID)
			if err != nil {
				return "", err
			}
			steps = append(steps, st)
		}
	}
	if v.State != "succeeded" || len(steps) != 1 || steps[0].Outcome != chat.OutcomeOK {
		return "", fmt.Errorf("run %s, steps %+v", v.State, steps)
	}
	return steps[0].Text, nil
}

// answerAll answers the run's pending questions as a user confirming each
// form as drawn.
func answerAll(ctx context.Context, s *chat.Service, runID string) error {
	pend, err := s.Pending(ctx, "")
	if err != nil {
		return err
	}
	for _, r := range pend {
		if r.RunID != runID {
			continue
		}
		if _, err := s.Answer(ctx, chat.AnswerInput{RequestID: r.ID, Values: confirm(r)}); err != nil && chat.CodeOf(err) != chat.CodeTargetClosed {
			return err
		}
	}
	return nil
}

// confirm is what a user sends who confirms a form as followup draws it:
// the prefilled values, a yes/no field ticked, a required field given a
// plain value.
func confirm(r chat.RequestView) map[string]any {
	vals := map[string]any{}
	for _, f := range r.Fields {
		if v, ok := r.Prefill[f.Name]; ok {
			vals[f.Name] = v
			continue
		}
		switch {
		case f.Type == forms.Boolean:
			vals[f.Name] = true
		case !f.Required:
		case len(f.Options) > 0 && f.Type == forms.Multiselect:
			vals[f.Name] = []string{f.Options[0].Value}
		case len(f.Options) > 0:
			vals[f.Name] = f.Options[0].Value
		case f.Type == forms.Number || f.Type == forms.Integer:
			v := 0.0
			if f.Min != nil {
				v = *f.Min
			}
			vals[f.Name] = v
		default:
			vals[f.Name] = "conformance"
		}
	}
	return vals
}

// crashWhileWaiting has a child send the call and drive it until it waits
// for input, then kills the child and returns the run.
func crashWhileWaiting(ctx context.Context, url, db, msg string) (string, error) {
	cmd := exec.CommandContext(ctx, os.Args[0], url)
	cmd.Env = append(os.Environ(), envChild+"="+db, envChildMsg+"="+msg)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	defer cmd.Wait()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return "", fmt.Errorf("the child said nothing: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	state, runID, _ := strings.Cut(strings.TrimSpace(line), " ")
	if state != "waiting" {
		fmt.Fprintf(os.Stderr, "the call of %s did not wait for input (%s)\n", runID, state)
		return runID, nil
	}
	note := fmt.Sprintf("killed the process driving %s while its call waited for input\n", runID)
	fmt.Fprint(os.Stderr, note)
	if path := os.Getenv(envKills); path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.WriteString(note)
			f.Close()
		}
	}
	return runID, nil
}

// child sends the call, drives it until it waits for input, says so on
// stdout and waits to be killed.
func child(url, db, msg string) error {
	ctx := context.Background()
	s, err := open(ctx, url, db)
	if err != nil {
		return err
	}
	sent, err := s.Send(ctx, "", msg, "")
	if err != nil {
		return err
	}
	v, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		return err
	}
	if v.State != "waiting_input" {
		fmt.Printf("%s %s\n", v.State, v.ID)
		return nil
	}
	fmt.Printf("waiting %s\n", v.ID)
	select {} // SIGKILL comes
}
