package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Text output is for people: no leading blank line, replies without raw
// markdown, and pending and show give what the JSON gives — partial
// values, what is still missing, each field's constraints.
func TestTextOutputIsForPeople(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "t.db")
	trip := runCLI(t, db, "ask", "Plan a trip")
	if trip.code != 0 || strings.HasPrefix(trip.stdout, "\n") || strings.Contains(trip.stdout, "\n\n\n") {
		t.Fatalf("ask: %d %q", trip.code, trip.stdout)
	}
	var rq string
	for _, line := range strings.Split(trip.stdout, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "pending" {
			rq = f[1]
		}
	}
	if r := runCLI(t, db, "answer", rq, "--values-json", `{"destination":"Oslo","travelers":3}`); r.code != 0 ||
		!strings.Contains(r.stdout, "still missing: start, transport") || strings.Contains(r.stdout, "Happy to plan") {
		t.Fatalf("partial answer: %d %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"pending"}, {"show", rq}} {
		r := runCLI(t, db, args...)
		if r.code != 0 || strings.HasPrefix(r.stdout, "\n") {
			t.Fatalf("%v: %d %q", args, r.code, r.stdout)
		}
		for _, want := range []string{
			"\n  asked by the agent\n",
			`- destination: text, required — given "Oslo"`,
			`- start ("Start date"): text, date (YYYY-MM-DD), required`,
			`- travelers ("Travellers"): whole number, 1–12, required — given 3`,
			`- transport: one of train | plane | car, required`,
			`- interests: any of food | museums | hiking, optional`,
			"still missing: start, transport",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v does not say %q:\n%s", args, want, r.stdout)
			}
		}
	}
	deploy := runCLI(t, db, "ask", "Check deployment", "--json")
	drq := decode(t, deploy)["pending"].([]any)[0].(map[string]any)["id"].(string)
	r := runCLI(t, db, "answer", drq, "--values-json", `{"environment":"production"}`)
	if r.code != 0 || !strings.Contains(r.stdout, "\n\nDeploying to production.") || strings.Contains(r.stdout, "**") {
		t.Fatalf("the reply is not plain text: %q", r.stdout)
	}
	// A chat's view counts its open requests, as the chat list does.
	tripChat := decode(t, runCLI(t, db, "inspect", strings.Fields(trip.stdout)[1], "--json"))["chat"].(map[string]any)
	if tripChat["pending"] != float64(1) {
		t.Errorf("inspect says the trip chat has %v pending", tripChat["pending"])
	}
	j := decode(t, runCLI(t, db, "inspect", decode(t, deploy)["runId"].(string), "--json"))
	if reply := j["run"].(map[string]any)["reply"].(string); !strings.Contains(reply, "**production**") {
		t.Errorf("JSON keeps the reply as written: %q", reply)
	}
	if in := runCLI(t, db, "inspect", decode(t, deploy)["chatId"].(string)); strings.Contains(in.stdout, "**") {
		t.Errorf("inspect shows raw markdown:\n%s", in.stdout)
	}
}
