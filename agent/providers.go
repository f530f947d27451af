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

// ModelName is the model a provider uses: model when set, else the
// provider's default (the offline demo's name is its own).
func ModelName(provider, model string) string {
	switch {
	case model != "":
		return model
	case provider == "openai":
		return DefaultOpenAIModel
	case provider == "anthropic":
		return DefaultAnthropicModel
	}
	return provider
}

// Retry policy of remote providers: transient failures (429, 5xx, dropped
// connections) are tried this often in all, backing off from RetryBase.
const (
	RetryAttempts = 4
	RetryBase     = 500 * time.Millisecond
)

// ProviderNames lists the valid provider names, the default first.
var ProviderNames = []string{"offline", "openai", "anthropic"}

// Config selects and configures a provider. It holds API keys: never log or
// print it whole.
type Config struct {
	Provider, Model                string
	OpenAIBaseURL, OpenAIKey       string
	AnthropicBaseURL, AnthropicKey string
}

// ConfigFromEnv reads FOLLOWUP_PROVIDER, FOLLOWUP_MODEL, OPENAI_BASE_URL,
// OPENAI_API_KEY, ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY. Flags given on
// the command line override its fields.
func ConfigFromEnv() Config {
	return Config{
		Provider:         strings.TrimSpace(os.Getenv("FOLLOWUP_PROVIDER")),
		Model:            strings.TrimSpace(os.Getenv("FOLLOWUP_MODEL")),
		OpenAIBaseURL:    strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")),
		OpenAIKey:        strings.TrimSpace(os.Getenv("OPENAI_API_KEY")),
		AnthropicBaseURL: strings.TrimSpace(os.Getenv("ANTHROPIC_BASE_URL")),
		AnthropicKey:     strings.TrimSpace(os.Getenv("ANTHROPIC_API_KEY")),
	}
}

// NewRemoteProvider builds the "openai" or "anthropic" provider, wrapped in
// WithRetry. A key is required only for the vendors' own endpoints: local
// servers (Ollama) and proxies may need none. Errors never contain a key.
func NewRemoteProvider(c Config) (Provider, error) {
	switch strings.ToLower(c.Provider) {
	case "openai":
		base := cmp.Or(c.OpenAIBaseURL, DefaultOpenAIBaseURL)
		if c.OpenAIKey == "" && sameURL(base, DefaultOpenAIBaseURL) {
			return nil, fmt.Errorf("provider openai: OPENAI_API_KEY is not set (for a local server such as Ollama set OPENAI_BASE_URL, e.g. http://localhost:11434/v1)")
		}
		p := NewOpenAI(base, c.OpenAIKey, cmp.Or(c.Model, DefaultOpenAIModel))
		return WithRetry(p, RetryAttempts, RetryBase), nil
	case "anthropic":
		base := cmp.Or(c.AnthropicBaseURL, DefaultAnthropicBaseURL)
		if c.AnthropicKey == "" && sameURL(base, DefaultAnthropicBaseURL) {
			return nil, fmt.Errorf("provider anthropic: ANTHROPIC_API_KEY is not set")
		}
		p := NewAnthropic(base, c.AnthropicKey, cmp.Or(c.Model, DefaultAnthropicModel))
		return WithRetry(p, RetryAttempts, RetryBase), nil
	}
	return nil, fmt.Errorf("unknown provider %q: valid providers are %s", c.Provider, strings.Join(ProviderNames, ", "))
}

func sameURL(a, b string) bool {
	return strings.TrimRight(a, "/") == strings.TrimRight(b, "/")
}

// String keeps the keys out of any log line or error that prints a Config.
func (c Config) String() string {
	return fmt.Sprintf("{Provider:%s Model:%s OpenAIBaseURL:%s OpenAIKey:%s AnthropicBaseURL:%s AnthropicKey:%s}",
		c.Provider, c.Model, c.OpenAIBaseURL, mask(c.OpenAIKey), c.AnthropicBaseURL, mask(c.AnthropicKey))
}

// GoString covers %#v the same way.
func (c Config) GoString() string { return "agent.Config" + c.String() }

func mask(key string) string {
	if key == "" {
		return ""
	}
	return "[set]"
}
