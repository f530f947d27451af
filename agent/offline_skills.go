package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"followup/forms"
)

// demoSkill is the built-in skill the demo agent uses when a message names
// it (docs/skills.md): it activates the skill and asks with the skill's form.
const demoSkill = "release-checklist"

// activated is a skill_activate result, as the demo agent reads it.
type activated struct {
	OK    bool   `json:"ok"`
	Name  string `json:"name"`
	Forms []struct {
		Template   string           `json:"template"`
		Definition forms.Definition `json:"definition"`
	} `json:"forms"`
}

// skillTurn activates the demo skill when the message names it.
func skillTurn(text string, st *history) (Message, bool) {
	low := strings.ToLower(text)
	if !strings.Contains(low, demoSkill) && !strings.Contains(low, "release checklist") {
		return Message{}, false
	}
	return st.calling("I'll use the "+demoSkill+" skill.", "skill_activate", map[string]string{"name": demoSkill}), true
}

// skillChanged answers the host's word that a skill the run activated
// changed or vanished (docs/skills.md): the demo activates it again.
func skillChanged(res statusResult, st *history) Message {
	if res.Now == nil {
		return Message{Content: "The " + res.Skill + " skill is gone, so I'll go on without it." + st.stillOpen()}
	}
	return st.calling("The "+res.Skill+" skill changed since I read it; I'll read it again.",
		"skill_activate", map[string]string{"name": res.Skill})
}

// afterActivate asks with the form of a skill just activated.
func afterActivate(result Message, st *history) (Message, bool) {
	var a activated
	if json.Unmarshal([]byte(result.Content), &a) != nil || !a.OK || len(a.Forms) == 0 {
		return Message{}, false
	}
	f := a.Forms[0]
	return st.calling(fmt.Sprintf("The %s skill has a form for this: \"%s\".", a.Name, f.Definition.Title), "input_request", demoDecl{
		RequestKey: f.Template,
		Reason:     fmt.Sprintf("The %s skill asks this before a release", a.Name),
		Source:     map[string]any{"kind": "template", "template": f.Template},
	}), true
}
