package chat

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestResultShapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   any
		want string
	}{
		{map[string]any{}, `{"ok":true}`},
		{map[string]any{"a": 1}, `{"ok":true,"a":1}`},
		{struct {
			X string `json:"x"`
		}{"y"}, `{"ok":true,"x":"y"}`},
	}
	for _, c := range cases {
		if got := string(OKJSON(c.in)); got != c.want {
			t.Errorf("OKJSON(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	var e struct {
		OK    bool   `json:"ok"`
		Error *Error `json:"error"`
	}
	if err := json.Unmarshal(OKJSON([]int{1}), &e); err != nil || e.OK || e.Error.Code != CodeInternal {
		t.Errorf("a non-object result: %+v %v", e, err)
	}
	json.Unmarshal(ErrorJSON(errorf(CodeNotFound, "no %s", "x")), &e)
	if e.OK || e.Error.Code != CodeNotFound || e.Error.Message != "no x" {
		t.Errorf("ErrorJSON = %+v", e)
	}
	if AsError(errors.New("boom")).Code != CodeInternal || CodeOf(nil) != "" {
		t.Error("AsError/CodeOf")
	}
}
