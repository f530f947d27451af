package forms

// DraftAnswer is the part of a draft that answers the form as it stands:
// each asked field's draft value read the way the form reads it (number
// text parsed; an empty text or selection is no value and is left out),
// then kept only when the answer rules accept it, in normal form (the
// values Normalize returns). A draft is lenient — number fields hold the
// text as typed, a cleared field holds "" — so it cannot be sent as an
// answer as it is; this is what can, for a command that offers to send
// it. The problems name each draft value left out because it is not a
// valid answer yet ("12a" in a whole-number field), with paths
// "/values/<name>"; values that are simply empty are not problems.
func DraftAnswer(def Definition, supplied, draft Values) (Values, []Problem) {
	live := &Live{def: def}
	out := Values{}
	var p problems
	for _, f := range def.Fields {
		raw, held := draft[f.Name]
		if _, known := supplied[f.Name]; known || !held {
			continue
		}
		s := newSlot(live, f)
		s.load(raw, true)
		if msg := s.problem(); msg != "" {
			p.add(ptr("/values", f.Name), "%s: %s", f.DisplayLabel(), msg)
			continue
		}
		v, ok := s.value()
		if !ok {
			continue
		}
		norm, probs := Normalize(def, map[string]any{f.Name: v}, "/values")
		if len(probs) > 0 {
			p.merge(probs)
			continue
		}
		if nv, ok := norm[f.Name]; ok {
			out[f.Name] = nv
		}
	}
	return out, p.result()
}
