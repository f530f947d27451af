package chat_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"followup/agent/agenttest"
)

// fakeModel is the kit's scripted model server playing, once its script is
// spent, a small deploy agent that decides from the conversation alone, so
// a call repeated after a crash gets the same answer.
type fakeModel struct{ *agenttest.Server }

// fakeBody is the part of a request the tests read.
type fakeBody struct {
	Messages []struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func newFakeModel(t *testing.T) *fakeModel {
	t.Helper()
	f := &fakeModel{agenttest.New(t)}
	f.Fallback(deployAgent)
	return f
}

// env selects this server as the openai provider of a child.
func (f *fakeModel) env(key string) []string {
	return []string{"FOLLOWUP_PROVIDER=openai", "OPENAI_BASE_URL=" + f.URL + "/v1", "OPENAI_API_KEY=" + key}
}

// body decodes what call i sent.
func (f *fakeModel) body(i int) fakeBody {
	var b fakeBody
	json.Unmarshal(f.Request(i).Raw, &b)
	return b
}

// deployAgent asks for an environment, then replies naming the answer.
func deployAgent(w http.ResponseWriter, r agenttest.Request, n int) {
	var b fakeBody
	if !strings.HasSuffix(r.Path, "/chat/completions") || json.Unmarshal(r.Raw, &b) != nil || len(b.Messages) == 0 {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	last := b.Messages[len(b.Messages)-1]
	var res struct {
		Status string `json:"status"`
		Values struct {
			Environment string `json:"environment"`
		} `json:"values"`
	}
	json.Unmarshal([]byte(last.Content), &res)
	switch {
	case res.Status == "input_received":
		agenttest.OpenAITurn(w, n, "Deploying to "+res.Values.Environment+".")
	case res.Status == "input_cancelled":
		agenttest.OpenAITurn(w, n, "Going on without an environment.")
	case last.Role == "tool":
		agenttest.OpenAITurn(w, n, "Waiting for your answer.")
	default:
		agenttest.OpenAITurn(w, n, "Which environment?", "input_request", deployRequest)
	}
}

const deployRequest = `{"requestKey":"deploy-environment","reason":"The deployment needs a target",
 "source":{"kind":"dynamic","definition":{"title":"Choose an environment","fields":[
  {"name":"environment","type":"select","label":"Environment","options":["production","staging"]}]}}}`
