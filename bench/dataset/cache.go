package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"followup/store"
)

// version names the shape of the generated data; change it when Build
// changes so cached databases are rebuilt.
const version = 4

// Copy gives benchmarks a private copy of a database of the given sizes in
// dir. Building the default sizes takes seconds, so the built file is kept
// in the temporary directory (followup-bench/) and reused by later runs and
// by other packages' benchmarks.
func Copy(dir string, sz Sizes) (string, Summary, error) {
	cache := filepath.Join(os.TempDir(), "followup-bench")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", Summary{}, err
	}
	name := fmt.Sprintf("v%d-c%d-m%d-r%d-b%d-p%d-s%d", version, sz.Chats, sz.Messages, sz.Requests, sz.BigChat, sz.Pending, sz.Seed)
	if sz.BigFirst {
		name += "-bigfirst"
	}
	db, meta := filepath.Join(cache, name+".db"), filepath.Join(cache, name+".json")
	var sum Summary
	b, err := os.ReadFile(meta)
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	if err != nil {
		if sum, err = build(db, meta, sz); err != nil {
			return "", Summary{}, err
		}
	}
	dst := filepath.Join(dir, "followup.db")
	return dst, sum, copyFile(db, dst)
}

// build writes the database under a temporary name and renames it into
// place, so a concurrent reader never sees half of it.
func build(db, meta string, sz Sizes) (Summary, error) {
	tmp := fmt.Sprintf("%s.%d.tmp", db, os.Getpid())
	os.Remove(tmp)
	ctx := context.Background()
	st, err := store.Open(ctx, tmp)
	if err != nil {
		return Summary{}, err
	}
	sum, err := Build(ctx, st, sz)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	os.Remove(tmp + "-lease")
	if err != nil {
		os.Remove(tmp)
		return sum, err
	}
	if err := os.Rename(tmp, db); err != nil {
		return sum, err
	}
	return sum, os.WriteFile(meta, []byte(mustJSON(sum)), 0o600)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
