package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every time in every JSON document is an RFC 3339 string.
func TestJSONTimesAreRFC3339(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "tm.db")
	ask := decode(t, runCLI(t, db, "ask", "Check deployment", "--json"))
	rq := ask["pending"].([]any)[0].(map[string]any)["id"].(string)
	seen := 0
	for _, args := range [][]string{
		{"chats"}, {"pending"}, {"show", rq}, {"inspect", ask["chatId"].(string)}, {"inspect", ask["runId"].(string)},
	} {
		doc := decode(t, runCLI(t, db, append(args, "--json")...))
		walkKeys(doc, "", func(path string, v any) {
			if !strings.HasSuffix(path, "At") {
				return
			}
			seen++
			s, ok := v.(string)
			if _, err := time.Parse(time.RFC3339, s); !ok || err != nil {
				t.Errorf("%v: %s = %v (%T), not an RFC 3339 time", args, path, v, v)
			}
		})
	}
	if seen < 5 {
		t.Fatalf("only %d times found", seen)
	}
}

func walkKeys(v any, path string, f func(path string, v any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			f(path+"/"+k, e)
			walkKeys(e, path+"/"+k, f)
		}
	case []any:
		for _, e := range x {
			walkKeys(e, path+"/*", f)
		}
	}
}
