package agent

import (
	"cmp"
	"fmt"
	"os"
	"strings"
	"time"
)

// Defaults for the remote providers.
const (
	DefaultOpenAIBaseURL    = "https://api.openai.com/v1"
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
	DefaultOpenAIModel      = "gpt-4o-mini"
	DefaultAnthropicModel   = "claude-sonnet-4-5"
)

// remote is what sets one remote provider apart: where it is, its default
// model, the variables that configure it and its constructor.
type remote struct {
	baseURL, model string
	urlEnv, keyEnv string
	keyHint        string // said when the key is missing
	new            func(baseURL, key, model string) Provider
}

var remotes = map[string]remote{
	"openai": {DefaultOpenAIBaseURL, DefaultOpenAIModel, "OPENAI_BASE_URL", "OPENAI_API_KEY",
		" (for a local server such as Ollama set OPENAI_BASE_URL, e.g. http://localhost:11434/v1)",
		func(b, k, m string) Provider { return NewOpenAI(b, k, m) }},
	"anthropic": {DefaultAnthropicBaseURL, DefaultAnthropicModel, "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "",
		func(b, k, m string) Provider { return NewAnthropic(b, k, m) }},
}

// ModelName is the model a provider uses: model when set, else the
// provider's default (the offline demo's name is its own).
func ModelName(provider, model string) string {
	return cmp.Or(model, remotes[provider].model, provider)
}

// Retry policy of remote providers: transient failures (429, 5xx, dropped
// connections) are tried this often in all, backing off from RetryBase.
const (
	RetryAttempts = 4
	RetryBase     = 500 * time.Millisecond
)

// ProviderNames lists the valid provider names, the default first.
var ProviderNames = []string{"offline", "openai", "anthropic"}

// Config selects and configures a provider. It holds an API key: never log
// or print it whole.
type Config struct {
	Provider, Model, BaseURL, Key string
}

// ConfigFromEnv is the configuration of the provider and model given on
// the command line (empty: FOLLOWUP_PROVIDER, FOLLOWUP_MODEL), with that
// provider's base URL and key: OPENAI_BASE_URL and OPENAI_API_KEY, or
// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY.
func ConfigFromEnv(provider, model string) Config {
	env := func(name string) string { return strings.TrimSpace(os.Getenv(name)) }
	c := Config{Provider: cmp.Or(provider, env("FOLLOWUP_PROVIDER")), Model: cmp.Or(model, env("FOLLOWUP_MODEL"))}
	if r, ok := remotes[strings.ToLower(c.Provider)]; ok {
		c.BaseURL, c.Key = env(r.urlEnv), env(r.keyEnv)
	}
	return c
}

// NewRemoteProvider builds the "openai" or "anthropic" provider, wrapped in
// WithRetry. A key is required only for the vendors' own endpoints: local
// servers (Ollama) and proxies may need none. Errors never contain a key.
func NewRemoteProvider(c Config) (Provider, error) {
	name := strings.ToLower(c.Provider)
	r, ok := remotes[name]
	if !ok {
		return nil, fmt.Errorf("unknown provider %q: valid providers are %s", c.Provider, strings.Join(ProviderNames, ", "))
	}
	base := cmp.Or(c.BaseURL, r.baseURL)
	if c.Key == "" && strings.TrimRight(base, "/") == r.baseURL {
		return nil, fmt.Errorf("provider %s: %s is not set%s", name, r.keyEnv, r.keyHint)
	}
	return WithRetry(r.new(base, c.Key, cmp.Or(c.Model, r.model)), RetryAttempts, RetryBase), nil
}

// String keeps the key out of any log line or error that prints a Config.
func (c Config) String() string {
	key := ""
	if c.Key != "" {
		key = "[set]"
	}
	return fmt.Sprintf("{Provider:%s Model:%s BaseURL:%s Key:%s}", c.Provider, c.Model, c.BaseURL, key)
}

// GoString covers %#v the same way.
func (c Config) GoString() string { return "agent.Config" + c.String() }
