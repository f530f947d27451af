package forms

import "testing"

func TestSanitize(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, line, block string }{
		{"plain", "Hello, 世界", "Hello, 世界", "Hello, 世界"},
		{"newline and tab", "a\nb\tc", "a b c", "a\nb\tc"},
		{"crlf", "a\r\nb", "a  b", "a\nb"},
		{"bare cr", "safe\rEVIL", "safe EVIL", "safe EVIL"},
		{"csi colour", "\x1b[31mred\x1b[0m", "red", "red"},
		{"csi clear screen", "x\x1b[2Jy", "xy", "xy"},
		{"osc title bel", "\x1b]0;pwned\x07ok", "ok", "ok"},
		{"osc 52 clipboard st", "\x1b]52;c;ZXZpbA==\x1b\\ok", "ok", "ok"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\ok", "ok", "ok"},
		{"charset designation", "\x1b(Bok", "ok", "ok"},
		{"two-byte escape", "\x1bcok", "ok", "ok"},
		{"lone esc at end", "ok\x1b", "ok", "ok"},
		{"c1 csi", "a\u009b31mb", "ab", "ab"},
		{"c1 osc", "a\u009d0;t\u009cb", "ab", "ab"},
		{"other c1", "a\u0085b", "a\uFFFDb", "a\uFFFDb"},
		{"bell and backspace", "a\x07\x08b", "a\uFFFD\uFFFDb", "a\uFFFD\uFFFDb"},
		{"del", "a\x7fb", "a\uFFFDb", "a\uFFFDb"},
		{"nul", "a\x00b", "a\uFFFDb", "a\uFFFDb"},
		{"bidi override", "abc\u202edcba", "abc\uFFFDdcba", "abc\uFFFDdcba"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb", "a\uFFFDb"},
		{"unterminated csi", "a\x1b[12", "a", "a"},
		{"csi with stray byte", "a\x1b[1\x00b", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := SanitizeLine(tc.in); got != tc.line {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.line)
			}
			if got := SanitizeLine(tc.in); got != tc.line {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.line)
			}
			if got := SanitizeBlock(tc.in); got != tc.block {
				t.Errorf("SanitizeBlock(%q) = %q, want %q", tc.in, got, tc.block)
			}
		})
	}
}

func FuzzSanitize(f *testing.F) {
	f.Add("\x1b[31mred\x1b]0;t\x07\u009b1m")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{SanitizeLine(s), SanitizeBlock(s)} {
			for _, r := range out {
				if r == 0x1b || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) || isBidi(r) {
					t.Fatalf("%q leaked %U", s, r)
				}
			}
		}
	})
}
