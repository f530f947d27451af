package forms

import "testing"

func TestLooksSecret(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f    Field
		want bool
	}{
		{Field{Name: "password"}, true},
		{Field{Name: "api_token"}, true},
		{Field{Name: "apiKey"}, true},
		{Field{Name: "APIKey"}, true},
		{Field{Name: "x", Label: "API key"}, true},
		{Field{Name: "github-token"}, true},
		{Field{Name: "db", Label: "Database password"}, true},
		{Field{Name: "pin_code", Format: "password"}, true},
		{Field{Name: "aws_secret_access_key"}, true},
		{Field{Name: "clientSecret"}, true},
		{Field{Name: "otp"}, true},
		{Field{Name: "name", Label: "Your full, legal name"}, false},
		{Field{Name: "integer", Description: "do not give us your phone number, pin, or password"}, false},
		{Field{Name: "secretary"}, false},
		{Field{Name: "tokenizer"}, false},
		{Field{Name: "keyboard", Label: "Keyboard layout"}, false},
		{Field{Name: "email", Format: "email"}, false},
	} {
		if got := LooksSecret(c.f); got != c.want {
			t.Errorf("LooksSecret(%+v) = %v, want %v (words %q %q)", c.f, got, c.want, words(c.f.Name), words(c.f.Label))
		}
	}
}
