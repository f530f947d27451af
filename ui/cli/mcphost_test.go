package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/agent/agenttest"
	"followup/agent/mcp/mcptest"
	"followup/chat"
	"followup/forms"
	"followup/ui/cli"
)

// everythingConfig writes an MCP config whose one server is
// server-everything over stdio, with autoApprove as given (JSON).
func everythingConfig(t *testing.T, autoApprove string) string {
	t.Helper()
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	entry := map[string]any{"command": command, "args": args, "timeout": 20}
	if autoApprove != "" {
		entry["autoApprove"] = json.RawMessage(autoApprove)
	}
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": entry}})
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// mcpEnv is where a test's followup keeps its database, MCP config and
// server logs.
type mcpEnv struct{ db, config, state string }

func newMCPEnv(t *testing.T, autoApprove string) mcpEnv {
	return mcpEnv{db: filepath.Join(t.TempDir(), "m.db"), config: everythingConfig(t, autoApprove), state: t.TempDir()}
}

func (e mcpEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"--db", e.db, "--mcp-config", e.config}, args...)...)
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline", "XDG_STATE_HOME="+e.state)
	return cmd
}

// processes lists the live processes started with this environment (the
// servers inherit its XDG_STATE_HOME), followup's own included.
func (e mcpEnv) processes(t *testing.T) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(env, []byte("XDG_STATE_HOME="+e.state+"\x00")) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(d, "stat")); err == nil && bytes.Contains(st, []byte(") Z ")) {
			continue // a zombie, dead already
		}
		out = append(out, filepath.Base(d))
	}
	return out
}

// mcpCLI runs followup in the test's environment.
func mcpCLI(t *testing.T, e mcpEnv, args ...string) result {
	t.Helper()
	cmd := e.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func TestMCPListApproveDeny(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "")

	list := decode(t, mcpCLI(t, e, "mcp", "list", "--json"))
	servers := list["servers"].([]any)
	srv := servers[0].(map[string]any)
	if len(servers) != 1 || srv["name"] != "everything" || srv["state"] != "connected" || len(srv["tools"].([]any)) == 0 {
		t.Fatalf("mcp list = %v", list)
	}
	// A tool that needs MCP tasks is listed with why it is not offered.
	if text := mcpCLI(t, e, "mcp", "list"); text.code != 0 || !strings.Contains(text.stdout, "everything  connected") ||
		!strings.Contains(text.stdout, "echo") ||
		!strings.Contains(text.stdout, "simulate-research-query (not offered: needs MCP tasks, which followup does not support)") {
		t.Fatalf("mcp list text: %d %q", text.code, text.stdout)
	}

	ask := decode(t, mcpCLI(t, e, "ask", `call everything.echo {"message": "hello from a script"}`, "--json"))
	aps := ask["approvals"].([]any)
	if ask["state"] != "waiting_input" || len(aps) != 1 {
		t.Fatalf("ask = %v", ask)
	}
	ap := aps[0].(map[string]any)
	if ap["server"] != "everything" || ap["tool"] != "echo" {
		t.Fatalf("approval = %v", ap)
	}
	pend := decode(t, mcpCLI(t, e, "pending", "--json"))
	if got := pend["approvals"].([]any); len(got) != 1 || got[0].(map[string]any)["id"] != ap["id"] {
		t.Fatalf("pending = %v", pend)
	}
	if text := mcpCLI(t, e, "pending"); !strings.Contains(text.stdout, "followup approve "+ap["id"].(string)) ||
		!strings.Contains(text.stdout, "hints: read-only") {
		t.Fatalf("pending text: %q", text.stdout)
	}
	ok := decode(t, mcpCLI(t, e, "approve", ap["id"].(string), "--json"))
	run := ok["run"].(map[string]any)
	if run["state"] != "succeeded" || !strings.Contains(run["reply"].(string), "hello from a script") {
		t.Fatalf("approve = %v", ok)
	}
	again := mcpCLI(t, e, "deny", ap["id"].(string), "--json")
	if again.code != 1 || decode(t, again)["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Fatalf("deny after approve: %d %s", again.code, again.stdout)
	}

	chatID := ask["chatId"].(string)
	ask = decode(t, mcpCLI(t, e, "ask", "--chat", chatID, `call everything.get-sum {"a": 1, "b": 2}`, "--json"))
	ap = ask["approvals"].([]any)[0].(map[string]any)
	denied := mcpCLI(t, e, "deny", ap["id"].(string))
	if denied.code != 0 || !strings.Contains(denied.stdout, "denied") || !strings.Contains(denied.stdout, "succeeded") {
		t.Fatalf("deny: %d %q %q", denied.code, denied.stdout, denied.stderr)
	}
}

// liveHint is the line a driving command prints when a server asks
// during a call; it names the request.
var liveHint = regexp.MustCompile(`waiting for (?:the answer to|your decision on) ((?:rq|ap)_[0-9a-f]+)`)

// startAsk starts `followup ask MESSAGE --json` and returns it with the id
// of the live question it says it waits for.
func startAsk(t *testing.T, e mcpEnv, message string) (*exec.Cmd, *bytes.Buffer, string) {
	t.Helper()
	cmd := e.command("ask", message, "--json")
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := liveHint.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case id, ok := <-found:
		if !ok {
			t.Fatal("ask ended without waiting for the server's question")
		}
		return cmd, &out, id
	case <-time.After(30 * time.Second):
		t.Fatal("ask never said it waits for the server's question")
	}
	return nil, nil, ""
}

func TestMCPLiveQuestionAnsweredFromAnotherShell(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	cmd, out, rq := startAsk(t, e, "call everything.trigger-elicitation-request")
	pend := decode(t, mcpCLI(t, e, "pending", "--json"))["requests"].([]any)
	if len(pend) != 1 || pend[0].(map[string]any)["id"] != rq || pend[0].(map[string]any)["live"] != true {
		t.Fatalf("pending = %v", pend)
	}
	// The answer says who goes on with it, not the run's reply before it.
	ans := mcpCLI(t, e, "answer", rq, "--values-json", `{"name": "Ada", "integer": 7}`)
	if ans.code != 0 || !strings.Contains(ans.stdout, rq+" answered") ||
		!strings.Contains(ans.stdout, "goes on in the process that asked everything during trigger-elicitation-request") ||
		strings.Contains(ans.stdout, "  running") {
		t.Fatalf("answer: %d %q %q", ans.code, ans.stdout, ans.stderr)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ask: %v\n%s", err, out)
	}
	var asked map[string]any
	if err := json.Unmarshal(out.Bytes(), &asked); err != nil {
		t.Fatal(err)
	}
	reply, _ := asked["reply"].(string)
	if asked["state"] != "succeeded" || !strings.Contains(reply, "User provided the requested information") ||
		!strings.Contains(reply, `"name": "Ada"`) || !strings.Contains(reply, `"integer": 7`) {
		t.Fatalf("ask = %v", asked)
	}
	show := decode(t, mcpCLI(t, e, "show", rq, "--json"))["request"].(map[string]any)
	d := show["deliveries"].([]any)[0].(map[string]any)
	if d["target"] != "mcp_server" || d["action"] != "accept" || d["state"] != "delivered" {
		t.Fatalf("delivery = %v", d)
	}
}

func TestMCPNoWaitGivesTheQuestionUp(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	res := mcpCLI(t, e, "ask", "call everything.trigger-elicitation-request", "--no-wait", "--json")
	asked := decode(t, res)
	if asked["state"] != "succeeded" || !strings.Contains(asked["reply"].(string), "interrupted") {
		t.Fatalf("ask --no-wait = %v", asked)
	}
	// Nothing waits, so nothing says it waits or how to give up waiting.
	if strings.Contains(res.stderr, "waiting for the answer") || strings.Contains(res.stderr, "Ctrl+C") {
		t.Fatalf("--no-wait says it waits: %s", res.stderr)
	}
	reqs := decode(t, mcpCLI(t, e, "inspect", asked["chatId"].(string), "--json"))["requests"].([]any)
	r := reqs[0].(map[string]any)
	if len(reqs) != 1 || r["state"] != "expired" || r["closedReason"] != "disconnected" {
		t.Fatalf("requests = %v", reqs)
	}
	d := r["deliveries"].([]any)[0].(map[string]any)
	if d["action"] != "cancel" || d["state"] != "delivered" {
		t.Fatalf("the server was not told cancel: %v", d)
	}
}

func TestMCPKilledWhileAServerAsksThenResumed(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	cmd, _, rq := startAsk(t, e, "call everything.trigger-elicitation-request")
	if n := len(e.processes(t)); n == 0 {
		t.Fatal("no server process found for the test's environment")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// No process of the server outlives followup, however it died.
	deadline := time.Now().Add(3 * time.Second)
	for len(e.processes(t)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("server processes outlived the kill: %v", e.processes(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The question died with its connection: never answerable into the void.
	if pend := decode(t, mcpCLI(t, e, "pending", "--json"))["requests"].([]any); len(pend) != 0 {
		t.Fatalf("pending after the kill = %v", pend)
	}
	show := decode(t, mcpCLI(t, e, "show", rq, "--json"))["request"].(map[string]any)
	if show["state"] != "expired" || show["closedReason"] != "disconnected" {
		t.Fatalf("request after the kill = %v", show)
	}
	late := mcpCLI(t, e, "answer", rq, "--values-json", `{"name": "Ada"}`, "--json")
	if late.code != 1 || decode(t, late)["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Fatalf("late answer: %d %s", late.code, late.stdout)
	}
	// The call's outcome is unknown and the tool is not read-only: resuming
	// tells the model it was interrupted, and nothing calls it again.
	res := decode(t, mcpCLI(t, e, "resume", show["runId"].(string), "--json"))
	run := res["run"].(map[string]any)
	if run["state"] != "succeeded" || !strings.Contains(run["reply"].(string), "interrupted") {
		t.Fatalf("resume = %v", res)
	}
}

func TestMCPPendingMarksWhatLooksLikeASecret(t *testing.T) {
	line := cli.FieldLineForTest(chat.RequestItem{Owner: chat.Owner{Kind: chat.OwnerMCPServer, Name: "s"}},
		forms.Field{Name: "apiKey", Type: forms.Text, Required: true})
	if !strings.Contains(line, "looks like a secret") {
		t.Fatalf("line = %q", line)
	}
	if line := cli.FieldLineForTest(chat.RequestItem{Owner: chat.Owner{Kind: chat.OwnerAgent}},
		forms.Field{Name: "apiKey", Type: forms.Text}); strings.Contains(line, "secret") {
		t.Fatalf("the agent's own field: %q", line)
	}
}

func TestMCPListWithoutServersSaysWhereTheyGo(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "none.json")
	os.WriteFile(config, []byte(`{"mcpServers": {}}`), 0o600)
	e := mcpEnv{db: filepath.Join(t.TempDir(), "m.db"), config: config, state: t.TempDir()}
	out := mcpCLI(t, e, "mcp", "list")
	if out.code != 0 || !strings.Contains(out.stdout, "config "+config) || !strings.Contains(out.stdout, "no MCP servers configured") {
		t.Fatalf("mcp list: %d %q", out.code, out.stdout)
	}
	j := decode(t, mcpCLI(t, e, "mcp", "list", "--json"))
	if j["config"] != config || len(j["servers"].([]any)) != 0 {
		t.Fatalf("mcp list --json = %v", j)
	}
	// A file whose every server is wrong is no file without servers.
	os.WriteFile(config, []byte(`{"mcpServers": {"everything": {"comand": "npx"}}}`), 0o600)
	out = mcpCLI(t, e, "mcp", "list")
	if out.code != 0 || !strings.Contains(out.stdout, "no MCP server is usable") || strings.Contains(out.stdout, "configured") ||
		!strings.Contains(out.stderr, "/mcpServers/everything/command") {
		t.Fatalf("mcp list of a wrong server: %d %q %q", out.code, out.stdout, out.stderr)
	}
}

// A shell without the server's configuration cannot allow its call (it
// could not make it): the approval stays pending, the error names the
// server and --mcp-config, and a command with the configuration allows
// it. Denying needs no server.
func TestMCPApproveWithoutTheServerLeavesItPending(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "")
	bare := func(args ...string) result {
		cmd := exec.Command(bin, append([]string{"--db", e.db}, args...)...)
		cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline", "XDG_STATE_HOME="+e.state, "XDG_CONFIG_HOME="+t.TempDir(), "FOLLOWUP_MCP_CONFIG=")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return result{out.String(), errb.String(), code}
	}
	ask := decode(t, mcpCLI(t, e, "ask", `call everything.echo {"message": "kept for the screen"}`, "--json"))
	id := ask["approvals"].([]any)[0].(map[string]any)["id"].(string)
	r := bare("approve", id)
	if r.code == 0 || !strings.Contains(r.stderr, `MCP server "everything"`) || !strings.Contains(r.stderr, "--mcp-config") ||
		strings.Contains(r.stdout+r.stderr, "NOT_FOUND") {
		t.Fatalf("approve without the config: %d %q %q", r.code, r.stdout, r.stderr)
	}
	pend := decode(t, mcpCLI(t, e, "pending", "--json"))
	if got := pend["approvals"].([]any); len(got) != 1 || got[0].(map[string]any)["id"] != id {
		t.Fatalf("pending after the refusal = %v", pend)
	}
	ok := decode(t, mcpCLI(t, e, "approve", id, "--json"))
	if run := ok["run"].(map[string]any); run["state"] != "succeeded" || !strings.Contains(run["reply"].(string), "kept for the screen") {
		t.Fatalf("approve with the config = %v", ok)
	}

	ask = decode(t, mcpCLI(t, e, "ask", `call everything.echo {"message": "no"}`, "--json"))
	id = ask["approvals"].([]any)[0].(map[string]any)["id"].(string)
	d := decode(t, bare("deny", id, "--json"))
	if run := d["run"].(map[string]any); run["state"] != "succeeded" || !strings.Contains(run["reply"].(string), "denied") {
		t.Fatalf("deny without the config = %v", d)
	}
}

// A configuration file followup was told to use (--mcp-config or
// FOLLOWUP_MCP_CONFIG) that is missing or not JSON ends every command in
// one line, exit 1; a missing default file means no servers.
func TestNamedMCPConfigMustBeUsable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"mcpServers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(env string, args ...string) result {
		cmd := exec.Command(bin, append([]string{"--db", filepath.Join(dir, "c.db")}, args...)...)
		cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline", "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), env)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return result{out.String(), errb.String(), code}
	}
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{"FOLLOWUP_MCP_CONFIG=", []string{"--mcp-config", filepath.Join(dir, "nope.json"), "mcp", "list"}, "no such file"},
		{"FOLLOWUP_MCP_CONFIG=" + bad, []string{"pending"}, "not valid JSON at line 1, column 16"},
		{"FOLLOWUP_MCP_CONFIG=" + filepath.Join(dir, "nope.json"), []string{"ask", "hi"}, "no such file"},
	} {
		r := run(tc.env, tc.args...)
		if r.code != 1 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 ||
			!strings.HasPrefix(r.stderr, "followup: INVALID_ARGUMENT: cannot use the MCP configuration ") || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s %v: exit %d, %q", tc.env, tc.args, r.code, r.stderr)
		}
	}
	if r := run("FOLLOWUP_MCP_CONFIG=", "mcp", "list"); r.code != 0 || !strings.Contains(r.stdout, "no MCP servers configured") {
		t.Errorf("the default file missing: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
}

// A server's progress on a call the command makes goes to stderr: plain
// lines when stderr is not a terminal, at most one a second, the latest
// when the call ends; stdout has the result only.
func TestMCPProgressOnStderr(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, `["trigger-long-running-operation"]`)
	r := mcpCLI(t, e, "ask", `call everything.trigger-long-running-operation {"duration": 2.4, "steps": 3}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Long running operation completed") {
		t.Fatalf("ask: %d %q %q", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	// Progress on a call that ended is dropped (agent/mcp): the last step,
	// sent just before the result, may land either side of it.
	last := lines[len(lines)-1]
	if !strings.Contains(r.stderr, "followup: everything · trigger-long-running-operation: 1/3\n") ||
		last != "followup: everything · trigger-long-running-operation: 3/3" && last != "followup: everything · trigger-long-running-operation: 2/3" ||
		len(lines) > 3 || strings.ContainsAny(r.stderr, "\r\x1b") || strings.Contains(r.stdout, "1/3") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// TestMCPResourcesAndAttach: `mcp resources` lists server-everything's
// resources; `ask --attach SERVER:URI` sends one with the message, and the
// demo agent's reply says what it read.
func TestMCPResourcesAndAttach(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "")
	const uri = "demo://resource/static/document/features.md"
	list := decode(t, mcpCLI(t, e, "mcp", "resources", "everything", "--json"))
	if !strings.Contains(fmt.Sprint(list["resources"]), "uri:"+uri) {
		t.Fatalf("mcp resources = %v", list)
	}
	if text := mcpCLI(t, e, "mcp", "resources"); text.code != 0 || !strings.Contains(text.stdout, "everything:"+uri+"  features.md  text/markdown\n") {
		t.Fatalf("mcp resources: %+v", text)
	}
	ask := mcpCLI(t, e, "ask", "What does it say?", "--attach", "everything:"+uri)
	if ask.code != 0 || !strings.Contains(ask.stdout, "I read the resource you attached, "+uri+" from MCP server everything, text/markdown") {
		t.Fatalf("ask --attach: %+v", ask)
	}
	// A resource it does not list is named by its URI, with the type it is read as.
	if link := mcpCLI(t, e, "ask", "and this", "--attach", "everything:demo://resource/dynamic/text/2"); link.code != 0 ||
		!strings.Contains(link.stdout, "demo://resource/dynamic/text/2 from MCP server everything, text/plain: ") {
		t.Fatalf("ask --attach a link: %+v", link)
	}
	if bad := mcpCLI(t, e, "ask", "this", "--attach", "everything"); bad.code != 2 {
		t.Fatalf("ask --attach without a URI: %+v", bad)
	}
}

// server-everything's tiny image reaches the model as an image: the OpenAI
// provider sends it after the tool result as a data URL, while the result's
// text (what the screen shows) still describes it.
func TestMCPImageReachesTheModel(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, `["get-tiny-image"]`)
	f := agenttest.New(t, agenttest.OpenAITurnReply("Fetching it.", "mcp__everything__get-tiny-image", `{}`),
		agenttest.OpenAITurnReply("A small logo."))
	cmd := e.command("ask", "Show me the tiny image")
	cmd.Env = append(cmd.Env, "FOLLOWUP_PROVIDER=openai", "OPENAI_BASE_URL="+f.URL, "OPENAI_API_KEY=k")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "A small logo.") {
		t.Fatalf("ask: %v\n%s", err, out)
	}
	msgs := f.Request(1).Body["messages"].([]any)
	var tool, images map[string]any
	for _, m := range msgs {
		switch m := m.(map[string]any); {
		case m["role"] == "tool":
			tool = m
		case m["role"] == "user" && tool != nil:
			images = m
		}
	}
	if tool == nil || !strings.Contains(tool["content"].(string), "[image image/png, ") || strings.Contains(tool["content"].(string), `"images"`) {
		t.Fatalf("tool message %v", tool)
	}
	url, _ := agenttest.Path(images, "content", 1, "image_url", "url").(string)
	if !strings.HasPrefix(url, "data:image/png;base64,iVBORw0KGgo") {
		t.Fatalf("the image after the tool result: %v", images)
	}
}

// server-everything's sampling request waits for a decision like a
// question: pending lists it (kind sampling) and approve from another
// shell lets followup's model answer; the server gets the reply.
func TestMCPSamplingApprovedFromAnotherShell(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	cmd, out, ap := startAsk(t, e, `call everything.trigger-sampling-request {"prompt": "name three rivers"}`)
	aps := decode(t, mcpCLI(t, e, "pending", "--json"))["approvals"].([]any)
	if len(aps) != 1 || aps[0].(map[string]any)["id"] != ap || aps[0].(map[string]any)["kind"] != "sampling" {
		t.Fatalf("pending approvals = %v", aps)
	}
	if text := mcpCLI(t, e, "pending"); !strings.Contains(text.stdout, "everything wants to use followup's model, during trigger-sampling-request (sampling)") ||
		!strings.Contains(text.stdout, "model offline, a reply of at most 100 tokens") || !strings.Contains(text.stdout, "name three rivers") {
		t.Fatalf("pending: %s", text.stdout)
	}
	if res := mcpCLI(t, e, "approve", ap); res.code != 0 || !strings.Contains(res.stdout, ap+" allowed once") {
		t.Fatalf("approve: %d %q %q", res.code, res.stdout, res.stderr)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ask: %v\n%s", err, out)
	}
	var asked map[string]any
	if err := json.Unmarshal(out.Bytes(), &asked); err != nil {
		t.Fatal(err)
	}
	reply, _ := asked["reply"].(string)
	if asked["state"] != "succeeded" || !strings.Contains(reply, "offline demo model") || !strings.Contains(reply, `"role": "assistant"`) {
		t.Fatalf("ask = %v", asked)
	}
}

// A sampling request dies with the process that kept the server's
// connection: pending no longer lists it and a late decision is refused.
func TestMCPSamplingEndsWithItsProcess(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	cmd, _, ap := startAsk(t, e, `call everything.trigger-sampling-request {"prompt": "hi"}`)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if aps := decode(t, mcpCLI(t, e, "pending", "--json"))["approvals"].([]any); len(aps) != 0 {
		t.Fatalf("pending approvals after the kill = %v", aps)
	}
	late := mcpCLI(t, e, "approve", ap, "--json")
	if late.code != 1 || decode(t, late)["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Fatalf("late approve: %d %s", late.code, late.stdout)
	}
}

// --no-wait gives a sampling request up at once: nothing reaches the
// model, and the server hears an error, not a rejection nobody made.
func TestMCPSamplingNoWaitGivesItUp(t *testing.T) {
	t.Parallel()
	e := newMCPEnv(t, "true")
	asked := decode(t, mcpCLI(t, e, "ask", `call everything.trigger-sampling-request {"prompt": "hi"}`, "--no-wait", "--json"))
	reply, _ := asked["reply"].(string)
	if asked["state"] != "succeeded" || !strings.Contains(reply, "given up before the user decided") || strings.Contains(reply, "offline demo model") {
		t.Fatalf("ask --no-wait = %v", asked)
	}
}
