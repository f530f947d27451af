package chat

import (
	"context"
	"fmt"
	"strings"

	"followup/store"
)

// MinDigestPrefix is the fewest hex characters of a digest that name it:
// the short digest the CLI prints is a prefix of this length, and a caller
// may give any prefix at least this long instead of the whole digest.
const MinDigestPrefix = 12

// CheckDigestForm refuses a digest that cannot name a revision: fewer than
// MinDigestPrefix characters, or not hex. "" means no digest was given.
func CheckDigestForm(d string) error {
	if d == "" {
		return nil
	}
	if len(d) < MinDigestPrefix {
		return errorf(CodeInvalidArgument, "the digest %q is too short: give at least %d hex characters of it", d, MinDigestPrefix)
	}
	if len(d) > 64 || strings.Trim(strings.ToLower(d), "0123456789abcdef") != "" {
		return errorf(CodeInvalidArgument, "the digest must be hex characters (%d to 64 of them), as pending prints it", MinDigestPrefix)
	}
	return nil
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
		Message: fmt.Sprintf("the digest does not match the request (revision %d has digest %s)", r.Revision, r.Digest[:MinDigestPrefix])}
}
