package chat

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A digest may be given whole or as a prefix of 12 or more hex characters
// (the short digest the CLI prints); one that breaks a rule of its form
// says which (not hex, too short, too long), and a wrong one says whether the request changed or the digest matches
// nothing — and none of them changes the request.
func TestDigestPrefixes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_d", fxDecl(t, map[string]any{"requestKey": "d", "source": fxTextDef("T", "a", "b")}))
	if err != nil {
		t.Fatal(err)
	}
	old := res.Digest
	if _, err := s.Replace(ctx, ReplaceInput{RequestID: res.RequestID, Source: json.RawMessage(mustJSON(fxTextDef("T2", "a", "b")))}, ""); err != nil {
		t.Fatal(err)
	}
	cur, err := s.Request(ctx, res.RequestID)
	if err != nil || cur.Revision != 2 {
		t.Fatalf("request: %+v %v", cur, err)
	}
	before := fxRows(t, s, res.RequestID)
	for _, tc := range []struct{ digest, code, says string }{
		{old, CodeStaleTarget, "changed since that digest (revision 1"},
		{old[:12], CodeStaleTarget, "changed since that digest (revision 1"},
		{"0123456789ab", CodeStaleTarget, "matches no revision of the request (it is at revision 2"},
		{cur.Digest[:11], CodeInvalidArgument, "is shorter than 12 hex characters"},
		{cur.Digest[:12] + "zz", CodeInvalidArgument, `is not hex: 'z' is not one of 0-9 a-f`},
		{"ZZZZ", CodeInvalidArgument, `"ZZZZ" is not hex: 'Z'`},
		{"3e15 f333fc53", CodeInvalidArgument, `not hex: ' '`},
		{cur.Digest + "00", CodeInvalidArgument, "is 66 hex characters; a whole digest has 64"},
	} {
		_, err := s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Digest: tc.digest, Values: map[string]any{"a": "x"}})
		if e := fxCode(t, err, tc.code); !strings.Contains(e.Message, tc.says) {
			t.Errorf("digest %q: %q does not say %q", tc.digest, e.Message, tc.says)
		}
	}
	if after := fxRows(t, s, res.RequestID); after != before {
		t.Fatalf("a refused digest changed the request:\n%s\n%s", before, after)
	}
	for _, d := range []string{cur.Digest[:12], strings.ToUpper(cur.Digest[:20]), cur.Digest} {
		rc, err := s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Digest: d, Values: map[string]any{"a": "x"}})
		if err != nil || rc.ApplyState != Partial {
			t.Fatalf("digest %q: %+v %v", d, rc, err)
		}
	}
}
