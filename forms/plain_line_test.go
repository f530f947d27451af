package forms

import "testing"

func TestPlainLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Deploying to **production** needs `approval`", "Deploying to production needs approval"},
		{"Pick the **index**", "Pick the index"},
		{"# Plan the trip", "Plan the trip"},
		{"Why:\n\n- it is **late**\n- it is cold", "Why: - it is late - it is cold"},
		{"my_file_name.go and 2 * 3", "my_file_name.go and 2 * 3"},
		{"see [docs](https://x.io/d)", "see docs (https://x.io/d)"},
		{"**\x1b]0;owned\x07bold**\ttab", "bold tab"},
		{"x\u202ey", "x\uFFFDy"},
		{"", ""},
	} {
		if got := PlainLine(tc.in); got != tc.want {
			t.Errorf("PlainLine(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
