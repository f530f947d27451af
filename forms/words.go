package forms

// Plural is the word that agrees with n: one when n is 1, else many
// ("1 field", "3 fields", "0 fields"). Every message that counts
// something — forms' problems, the CLI's output — picks its noun with it,
// never "field(s)".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
