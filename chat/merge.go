package chat

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"followup/forms"
)

// Two hands may change one question's values at once: the user in an open
// form, and another process (a partial answer from the CLI, a proposal
// accepted there, another window's draft). MergeEdits is the one rule for
// both: SaveDraft applies it when the stored draft changed under the one
// being saved, and the screen applies it to the form it shows (docs/behaviour.md).

// Merged is what MergeEdits made of the two hands' values.
type Merged struct {
	Values forms.Values // the values to keep
	Took   []string     // the fields that took the other hand's value, in the form's order
	Kept   []string     // the fields where the user's own edit stays over the other hand's value
}

// MergeEdits merges into mine — the user's values, edited from base —
// what another hand changed since base (theirs). A field whose value in
// theirs differs from base takes it, unless the user edited that field:
// then their own value stays (Kept says so when the two differ). An edit
// is a value that is not empty (a field passed by), not the prefill's
// suggestion (confirmed by passing it) and not base's own. Fields are
// visited in the form's order; values of fields theirs does not hold stay
// as they are in mine.
func MergeEdits(fields []forms.Field, prefill, base, mine, theirs forms.Values) Merged {
	out := Merged{Values: forms.Values{}}
	maps.Copy(out.Values, mine)
	for _, f := range fields {
		v, ok := theirs[f.Name]
		if !ok {
			continue
		}
		was, had := base[f.Name]
		if had && SameValue(was, v) {
			continue // theirs did not change it
		}
		own, has := mine[f.Name]
		switch {
		case has && EditedHere(own, prefill[f.Name], was, had):
			if !SameValue(own, v) {
				out.Kept = append(out.Kept, f.Name)
			}
		default:
			out.Values[f.Name] = v
			out.Took = append(out.Took, f.Name)
		}
	}
	return out
}

// EditedHere reports whether a field's value in a draft is the user's own
// edit: not empty (a field passed by), not the suggestion drawn from the
// prefill, and not the value the draft was edited from (base, when had).
func EditedHere(mine, prefill, base any, had bool) bool {
	switch t := valueText(mine); {
	case t == "" || t == "[]":
		return false
	case prefill != nil && SameValue(mine, prefill):
		return false
	case had && SameValue(mine, base):
		return false
	}
	return true
}

// SameValue reports whether two values of a field read the same: a draft
// keeps number text as typed where the host keeps numbers, and lists may
// be []any or []string.
func SameValue(a, b any) bool { return valueText(a) == valueText(b) }

func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		items := make([]string, len(x))
		for i, it := range x {
			items[i] = valueText(it)
		}
		return "[" + strings.Join(items, "\x00") + "]"
	case []string:
		return "[" + strings.Join(x, "\x00") + "]"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return x
	}
	return fmt.Sprint(v)
}
