package cli

import (
	"strings"
	"testing"

	"followup/chat"
)

// pending names a link's host and says what is suspicious about it, as
// the screen's consent card does: one rule, chat.CheckLink.
func TestURLTextWarnsAsTheCardDoes(t *testing.T) {
	r := chat.RequestItem{ID: "rq_1", State: "pending", Mode: "url", URL: "https://xn--pple-43d.com/login"}
	got := urlText(r)
	for _, want := range []string{"host: xn--pple-43d.com", "careful: the host is punycode", "followup answer rq_1 --values-json '{}'"} {
		if !strings.Contains(got, want) {
			t.Errorf("urlText lacks %q:\n%s", want, got)
		}
	}
	if plain := urlText(chat.RequestItem{ID: "rq_2", State: "pending", Mode: "url", URL: "https://example.com/x"}); strings.Contains(plain, "careful") {
		t.Errorf("a plain host is warned about:\n%s", plain)
	}
}
