package chat

import (
	"strings"
	"testing"
)

// A punycode label is shown decoded; one that is not valid punycode is
// shown as written.
func TestPunycodeDecodes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"mnchen-3ya": "münchen", "bcher-kva": "bücher", "pple-43d": "аpple",
		"80ak6aa92e": "аррӏе", "80akhbyknj4f": "испытание", "wgv71a119e": "日本語",
		"99999999999": "xn--99999999999", "abc!": "xn--abc!", "é-abc": "xn--é-abc"} {
		if got := CheckLink("https://xn--" + in + ".example/").Shown; got != want+".example" {
			t.Errorf("xn--%s shown as %q, want %q", in, got, want+".example")
		}
	}
}

// The consent card's reading of a link: the host, a warning on punycode
// and on mixed scripts, and which links may be handed to the browser.
func TestCheckLink(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url      string
		host     string
		warn     []string
		openable bool
	}{
		{"https://example.com/a?b=c", "example.com", nil, true},
		{"https://xn--pple-43d.com/login", "xn--pple-43d.com", []string{"punycode", "“аpple.com”", "mixes scripts in “аpple” (Cyrillic and Latin)"}, true},
		{"https://xn--mnchen-3ya.de/", "xn--mnchen-3ya.de", []string{"punycode", "“münchen.de”"}, true},
		{"https://аpple.com/", "аpple.com", []string{"mixes scripts"}, true},
		{"https://paypal.com@evil.example/x", "evil.example", []string{"user name before the host"}, true},
		{"file:///etc/passwd", "", nil, false},
		{"javascript:alert(1)", "", nil, false},
		{"https://example.com/\u202egnp.exe", "example.com", nil, false},
	} {
		got := CheckLink(c.url)
		all := strings.Join(got.Warnings, "\n")
		if got.Host != c.host || got.Openable != c.openable {
			t.Errorf("%s: host %q openable %v, want %q %v (%s)", c.url, got.Host, got.Openable, c.host, c.openable, got.Problem)
		}
		for _, w := range c.warn {
			if !strings.Contains(all, w) {
				t.Errorf("%s: warnings %q lack %q", c.url, all, w)
			}
		}
		if len(c.warn) == 0 && all != "" {
			t.Errorf("%s: unexpected warnings %q", c.url, all)
		}
	}
}
