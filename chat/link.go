package chat

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
)

// What followup says about a link an MCP server asks the user to open,
// before the user opens it (docs/mcp.md) — on the screen's consent card and
// in the CLI alike: the host on a line of its own, and a warning when its
// name is punycode (xn--) or mixes scripts — the ways a look-alike of a
// known name is written.

// LinkCheck is what followup knows of a link.
type LinkCheck struct {
	Host string // as written in the URL, lower-cased; "" when it has none
	// Shown is the host as a browser may show it, when that differs
	// (punycode decoded).
	Shown string
	// Warnings say what is suspicious about the host, one a line.
	Warnings []string
	// Openable: an http or https URL with a host and no control
	// characters, which followup may hand to the browser.
	Openable bool
	// Problem says why the link cannot be opened, when it cannot.
	Problem string
}

// CheckLink reads raw as the user is shown it.
func CheckLink(raw string) LinkCheck {
	var c LinkCheck
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		c.Problem = "this is not a web address followup can read"
		switch {
		case strings.IndexFunc(raw, unseen) >= 0:
			c.Problem = "the link holds control or invisible characters"
		case err == nil && u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https":
			c.Problem = "only http and https links are opened (this one is " + u.Scheme + ":)"
		}
		return c
	}
	c.Host = strings.ToLower(u.Hostname())
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		c.Problem = "only http and https links are opened (this one is " + u.Scheme + ":)"
	case strings.IndexFunc(raw, unseen) >= 0:
		c.Problem = "the link holds control or invisible characters"
	case u.User != nil:
		c.Warnings = append(c.Warnings, "the link carries a user name before the host (“"+u.User.Username()+"@”): the site is the host below, whatever the name says")
		c.Openable = true
	default:
		c.Openable = true
	}
	labels := strings.Split(c.Host, ".")
	decoded := make([]string, len(labels))
	puny := false
	for i, l := range labels {
		decoded[i] = l
		if strings.HasPrefix(l, "xn--") {
			puny = true
			if d, err := idna.Display.ToUnicode(l); err == nil {
				decoded[i] = d
			}
		}
	}
	if puny {
		c.Shown = strings.Join(decoded, ".")
		c.Warnings = append(c.Warnings, "the host is punycode (xn--): browsers may show it as “"+c.Shown+
			"”, letters that can imitate another site's name")
	}
	mixed := false
	for _, l := range decoded {
		if scripts := hostScripts(l); len(scripts) > 1 && !mixed {
			mixed = true
			c.Warnings = append(c.Warnings, "the host mixes scripts in “"+l+"” ("+strings.Join(scripts, " and ")+"): a common way to imitate a known name")
		}
	}
	if !mixed && !puny && strings.IndexFunc(c.Host, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
		c.Warnings = append(c.Warnings, "the host is not plain ASCII: check each letter")
	}
	return c
}

// unseen reports the characters a link cannot be shown with as it is:
// controls, and the format characters that change how text reads without
// being seen (bidi overrides, zero-width characters).
func unseen(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// scriptTables are the scripts a host name's letters are checked against.
var scriptTables = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Hebrew", unicode.Hebrew}, {"Arabic", unicode.Arabic},
	{"Devanagari", unicode.Devanagari}, {"Thai", unicode.Thai}, {"Hangul", unicode.Hangul},
	{"Han", unicode.Han}, {"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana},
	{"Georgian", unicode.Georgian}, {"Cherokee", unicode.Cherokee},
}

// hostScripts names the scripts of a host's letters, in order of first
// use. Digits, hyphens and dots belong to none.
func hostScripts(host string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range host {
		if !unicode.IsLetter(r) {
			continue
		}
		name := "another script"
		for _, s := range scriptTables {
			if unicode.Is(s.table, r) {
				name = s.name
				break
			}
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
