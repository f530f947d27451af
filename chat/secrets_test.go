package chat_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"followup/agent/agenttest"
	"followup/store"
)

// TestAPIKeyNeverWritten runs full flows through --provider openai with a
// distinctive key — including a 401 whose message quotes the key, as
// OpenAI's does — and proves the key's bytes are in none of the database
// files and none of the output.
func TestAPIKeyNeverWritten(t *testing.T) {
	t.Parallel()
	var b [16]byte
	rand.Read(b[:])
	key := "sk-followup-secret-" + hex.EncodeToString(b[:])
	f := newFakeModel(t)
	w := newWorld(t, "OPENAI_BASE_URL="+f.URL+"/v1", "OPENAI_API_KEY="+key)
	var out bytes.Buffer
	run := func(args ...string) fuResult {
		r := w.cli.run(nil, append([]string{"--provider", "openai"}, args...)...)
		out.WriteString(r.Stdout + r.Stderr)
		return r
	}

	r := run("ask", "Deploy the release")
	rq, runID := str(r.JSON, "pending", 0, "id"), str(r.JSON, "runId")
	if r.Code != 0 || rq == "" {
		t.Fatalf("ask: %s", r)
	}
	if r := run("answer", rq, "--values-json", `{"environment":"staging"}`); str(r.JSON, "run", "state") != store.RunSucceeded {
		t.Fatalf("answer: %s", r)
	}
	f.Then(agenttest.JSONReply(401, `{"error":{"message":"Incorrect API key provided: `+key+`. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`))
	if r := run("ask", "Deploy again"); r.Code != 1 {
		t.Fatalf("ask with a refused key: %s", r)
	}
	if n := w.count(`SELECT COUNT(*) FROM runs WHERE error LIKE '%Incorrect API key provided%'`); n != 1 {
		t.Fatalf("the refusal's message was not recorded (%d runs)", n)
	}
	for _, args := range [][]string{{"inspect", runID}, {"show", rq}} {
		run(args...)
	}
	for i := range f.Calls() {
		if f.Request(i).Header.Get("Authorization") != "Bearer "+key {
			t.Fatalf("call %d was not made with the key", i)
		}
	}

	if bytes.Contains(out.Bytes(), []byte(key)) {
		t.Errorf("the key is in the output:\n%s", out.String())
	}
	secret := []byte(hex.EncodeToString(b[:])) // also without its prefix
	found := 0
	for _, suffix := range []string{"", "-wal", "-shm", "-lease"} {
		data, err := os.ReadFile(w.cli.db + suffix)
		if os.IsNotExist(err) && (suffix == "-wal" || suffix == "-shm") {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		found++
		if bytes.Contains(data, secret) {
			t.Errorf("the key is in %s", w.cli.db+suffix)
		}
	}
	if found < 2 {
		t.Fatalf("only %d database files to check", found)
	}
}
