package agent

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"followup/agent/agenttest"
)

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("FOLLOWUP_PROVIDER", "anthropic")
	t.Setenv("FOLLOWUP_MODEL", "claude-x")
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	t.Setenv("OPENAI_API_KEY", "sk-o")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
	t.Setenv("ANTHROPIC_API_KEY", "sk-a")
	want := Config{Provider: "anthropic", Model: "claude-x", BaseURL: "http://127.0.0.1:9", Key: "sk-a"}
	if got := ConfigFromEnv("", ""); got != want {
		t.Fatalf("got %#v", got)
	}
	// The command line's provider and model win, with that provider's variables.
	want = Config{Provider: "openai", Model: "gpt-x", BaseURL: "http://localhost:11434/v1", Key: "sk-o"}
	if got := ConfigFromEnv("openai", "gpt-x"); got != want {
		t.Fatalf("got %#v", got)
	}
}

func TestConfigPrintsNoKeys(t *testing.T) {
	t.Parallel()
	c := Config{Provider: "openai", Key: "sk-secret-o"}
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, c, c, c)} {
		if strings.Contains(s, "sk-secret") {
			t.Fatalf("key printed: %s", s)
		}
	}
}

func TestNewRemoteProviderErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cfg  Config
		want []string
	}{
		{Config{Provider: "gemini", Key: "sk-secret"}, []string{`"gemini"`, "offline", "openai", "anthropic"}},
		{Config{Provider: ""}, []string{"offline", "openai", "anthropic"}},
		{Config{Provider: "openai"}, []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"}},
		{Config{Provider: "anthropic", BaseURL: DefaultAnthropicBaseURL + "/"}, []string{"ANTHROPIC_API_KEY"}},
	}
	for _, c := range cases {
		p, err := NewRemoteProvider(c.cfg)
		if err == nil || p != nil {
			t.Errorf("%+v: want an error", c.cfg)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %q lacks %q", c.cfg, err, w)
			}
		}
		if strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("key in error %q", err)
		}
	}
}

// A local server needs no key, the model defaults apply, and the provider
// comes wrapped in retries.
func TestNewRemoteProviderDefaults(t *testing.T) {
	t.Parallel()
	busy := agenttest.JSONReply(http.StatusServiceUnavailable, `{"error":{"message":"loading"}}`, "Retry-After-Ms", "1")
	oa := agenttest.New(t, busy, agenttest.JSONReply(200, `{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`))
	an := agenttest.New(t, busy, agenttest.JSONReply(200, `{"id":"m","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`))
	for _, c := range []struct {
		cfg   Config
		fake  *agenttest.Server
		model string
	}{
		{Config{Provider: "openai", BaseURL: oa.URL + "/v1/"}, oa, DefaultOpenAIModel},
		{Config{Provider: "Anthropic", BaseURL: an.URL, Model: "claude-haiku"}, an, "claude-haiku"},
	} {
		p, err := NewRemoteProvider(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != strings.ToLower(c.cfg.Provider) {
			t.Errorf("Name = %q", p.Name())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := p.Complete(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		cancel()
		if err != nil || resp.Message.Content != "hi" {
			t.Fatalf("%s: %v %+v", c.cfg.Provider, err, resp)
		}
		if c.fake.Calls() != 2 || c.fake.Request(1).Body["model"] != c.model {
			t.Errorf("%s: calls %d, model %v", c.cfg.Provider, c.fake.Calls(), c.fake.Request(1).Body["model"])
		}
	}
}
