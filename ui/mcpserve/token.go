package mcpserve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TokenFileName is the bearer token's file in followup's state directory
// when --token-file names none (docs/mcp-serve.md).
const TokenFileName = "mcp-serve-token"

// LoadToken is the bearer token that HTTP clients must send: the one in
// path, or, when there is no such file yet, a new random one written there
// (0600; a folder it needs is made 0700). A file others may read, or that
// is no regular file, or empty, is refused in words: the token is the only
// thing between another local user and the user's answers.
func LoadToken(path string) (string, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newToken(path)
	}
	if err != nil {
		return "", err
	}
	switch {
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("the token file %s is not a regular file", path)
	case st.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("the token file %s may be read by other users (mode %04o): chmod 600 %s, or delete it for a new token", path, st.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("the token file %s is empty: delete it for a new token", path)
	}
	return tok, nil
}

// newToken writes a new token to path, unless another process just did.
func newToken(path string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadToken(path)
	}
	if err != nil {
		return "", err
	}
	tok := rand.Text()
	if _, err := f.WriteString(tok + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return "", err
	}
	return tok, f.Close()
}

// requireToken lets through only the requests that carry token as their
// bearer token, compared in constant time; the others get 401.
func requireToken(token string) func(http.Handler) http.Handler {
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return nil, fmt.Errorf("%w: this is not the token of this followup mcp serve (it printed how to add it)", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{}, nil
	}
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
}

// ClientSetup is how to add the server at url, with its token, to the
// clients docs/mcp-serve.md names: what `followup mcp serve --http` prints.
func ClientSetup(url, token string) string {
	return fmt.Sprintf(`Clients must send its token (Authorization: Bearer …). Add it to
  Claude Code:
    claude mcp add --transport http followup %[1]s --header "Authorization: Bearer %[2]s"
  Codex, in ~/.codex/config.toml:
    [mcp_servers.followup]
    url = "%[1]s"
    http_headers = { Authorization = "Bearer %[2]s" }
  crush, in crush.json:
    {"mcp": {"followup": {"type": "http", "url": "%[1]s", "headers": {"Authorization": "Bearer %[2]s"}}}}
`, url, token)
}
