package chat

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"followup/store"
)

// MinDigestPrefix is the fewest hex characters of a digest that name it:
// the short digest the CLI prints is a prefix of this length, and a caller
// may give any prefix at least this long instead of the whole digest.
const MinDigestPrefix = 12

// CheckDigestForm refuses a digest that cannot name a revision, saying
// which rule it breaks: not hex, shorter than MinDigestPrefix, longer than
// a whole digest. "" means no digest was given. (One that is well formed
// but starts no revision's digest is checkDigest's STALE_TARGET.)
func CheckDigestForm(d string) error {
	if d == "" {
		return nil
	}
	if i := strings.IndexFunc(d, notHex); i >= 0 {
		r, _ := utf8.DecodeRuneInString(d[i:])
		return errorf(CodeInvalidArgument, "the digest %q is not hex: %q is not one of 0-9 a-f; give the digest as pending prints it",
			clip(d, 80), r)
	}
	if len(d) < MinDigestPrefix {
		return errorf(CodeInvalidArgument, "the digest %q is shorter than %d hex characters: give at least %d of it, as pending prints it",
			d, MinDigestPrefix, MinDigestPrefix)
	}
	if len(d) > digestLen {
		return errorf(CodeInvalidArgument, "the digest is %d hex characters; a whole digest has %d", len(d), digestLen)
	}
	return nil
}

// digestLen is the length of a whole digest: hex SHA-256.
const digestLen = 64

func notHex(r rune) bool {
	return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
}

// checkDigest is the digest rule of every command that names the revision
// it saw: given, a prefix of at least MinDigestPrefix hex characters,
// must start the request's current digest. A digest of an older revision
// says the request changed; one of no revision says it does not match.
func (s *Service) checkDigest(ctx context.Context, tx store.Handle, r store.Request, given string) error {
	if given == "" {
		return nil
	}
	if err := CheckDigestForm(given); err != nil {
		return err
	}
	given = strings.ToLower(given)
	if strings.HasPrefix(r.Digest, given) {
		return nil
	}
	details := map[string]any{"digest": r.Digest, "revision": r.Revision}
	revs, err := s.store.Revisions(ctx, tx, r.ID)
	if err != nil {
		return err
	}
	for _, v := range revs {
		if strings.HasPrefix(v.Digest, given) {
			details["givenRevision"] = v.Revision
			return &Error{Code: CodeStaleTarget, Details: details,
				Message: fmt.Sprintf("the request changed since that digest (revision %d; it is at revision %d now): review the new revision", v.Revision, r.Revision)}
		}
	}
	return &Error{Code: CodeStaleTarget, Details: details,
		Message: fmt.Sprintf("the digest matches no revision of the request (it is at revision %d, digest %s)", r.Revision, r.Digest[:MinDigestPrefix])}
}
