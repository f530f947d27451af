package forms

import (
	"strings"
	"unicode"
)

// LooksSecret reports whether a field seems to ask for a secret — a
// password, a token, an API or private key, a one-time code — by its name,
// its label or its format. MCP forbids servers to ask for secrets in form
// mode (docs/mcp.md), so the screen marks such a field with a warning. The
// description is not read: it often says what not to enter.
func LooksSecret(f Field) bool {
	if strings.EqualFold(f.Format, "password") {
		return true
	}
	return secretWords(words(f.Name)) || secretWords(words(f.Label))
}

// secretWord are words that name a secret on their own; secretPairs,
// pairs of words that do.
var (
	secretWord = map[string]bool{
		"password": true, "passwd": true, "passphrase": true, "passcode": true, "pwd": true,
		"secret": true, "token": true, "apikey": true, "credential": true, "credentials": true,
		"otp": true, "totp": true, "privatekey": true, "accesskey": true,
	}
	secretPairs = map[string]bool{
		"api key": true, "access key": true, "private key": true, "secret key": true, "signing key": true,
		"auth code": true, "security code": true, "verification code": true, "recovery code": true,
	}
)

func secretWords(ws []string) bool {
	for i, w := range ws {
		if secretWord[w] || i > 0 && secretPairs[ws[i-1]+" "+w] {
			return true
		}
	}
	return false
}

// words splits a name or label into lower-case words: at spaces and
// punctuation, and where camelCase turns upper ("apiKey" → api key).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}
