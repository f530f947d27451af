package forms

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestZZProbe(t *testing.T) {
	def := Definition{Title: "T", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}, {Name: "b", Type: Text}}}
	l := Build(def, nil, nil, nil, BuildOptions{Width: 94})
	pump(l.Form(), l.Form().Init())
	v := strings.Repeat("x", 150) + strings.Repeat("日本語", 30)
	for _, r := range v {
		pumpLive(l, []tea.Cmd{l.Update(typed(string(r)))})
	}
	got := l.Values()["a"]
	fmt.Println(got == v, len([]rune(got.(string))))
	fmt.Println(l.View())
}
