package forms

import (
	"testing"
)

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Deploying to **production**.", "Deploying to production."},
		{"__bold__ and *it* and _it_ and ***both***", "bold and it and it and both"},
		{"~~gone~~ but ~one~ stays", "gone but ~one~ stays"},
		{"**bold *nested* here**", "bold nested here"},
		{"snake_case_name and my_file.go", "snake_case_name and my_file.go"},
		{"2 * 3 * 4 and a ** b", "2 * 3 * 4 and a ** b"},
		{"**unclosed bold", "**unclosed bold"},
		{"run `go test ./...` now", "run go test ./... now"},
		{"``code with ` inside``", "code with ` inside"},
		{"`**not bold**`", "**not bold**"},
		{`\*literal\* and 5\_000`, "*literal* and 5_000"},
		{"# Title", "Title"},
		{"### Closed heading ###", "Closed heading"},
		{"#hashtag stays", "#hashtag stays"},
		{"Heading\n=======\ntext", "Heading\ntext"},
		{"- one\n* two\n+ **three**", "- one\n- two\n- three"},
		{"  - nested `x`", "  - nested x"},
		{"1. first\n2) second", "1. first\n2) second"},
		{"> quoted **text**\n> - item", "> quoted text\n> - item"},
		{"see [the docs](https://example.com/docs \"Docs\")", "see the docs (https://example.com/docs)"},
		{"[https://x.io](https://x.io)", "https://x.io"},
		{"![a diagram](img.png)", "a diagram (img.png)"},
		{"<https://example.com> and <me@example.com>", "https://example.com and me@example.com"},
		{"[not a link] and a < b > c", "[not a link] and a < b > c"},
		{"```go\nfunc **main**() {}\n```\nafter", "    func **main**() {}\nafter"},
		{"~~~~\n```\n~~~~", "    ```"},
		{"above\n\n---\n\nbelow", "above\n\n----\n\nbelow"},
		{"line one  \r\nline two", "line one\nline two"},
		{"", ""},
	} {
		if got := PlainText(tc.in); got != tc.want {
			t.Errorf("PlainText(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
