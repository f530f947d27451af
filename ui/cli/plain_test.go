package cli

import (
	"strings"
	"testing"
)

// Text from a model is sanitised after it is rendered: marks around an
// escape sequence do not smuggle it through.
func TestReplyTextIsSanitised(t *testing.T) {
	got := replyText("**\x1b]0;owned\x07bold**\n")
	if strings.ContainsAny(got, "\x1b\x07*") || !strings.HasSuffix(got, "bold\n") {
		t.Fatalf("replyText = %q", got)
	}
	if replyText("  \n") != "" {
		t.Fatal("an empty reply is not a paragraph")
	}
}
