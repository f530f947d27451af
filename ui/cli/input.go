package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"followup/chat"
)

// MaxInputRead bounds every file or standard input the CLI reads
// (docs/behaviour.md): the read stops there, so /dev/zero or a huge sparse file
// costs at most this much memory and time.
const MaxInputRead = 8 << 20

// readInput reads the file at path, or standard input for "-", never more
// than MaxInputRead bytes. A regular file that is too big is refused from
// its size before anything is read; anything else (a pipe, a device) is
// refused when the read passes the limit.
func readInput(path string, stdin io.Reader) ([]byte, error) {
	name := path
	var r io.Reader = stdin
	if path == "-" {
		name = "standard input"
		if stdin == nil {
			r = strings.NewReader("")
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, inputError(path, err)
		}
		defer f.Close()
		r = f
	}
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			switch {
			case st.IsDir():
				return nil, &chat.Error{Code: chat.CodeInvalidArgument, Message: name + " is a directory, not a file"}
			case st.Mode().IsRegular() && st.Size() > MaxInputRead:
				return nil, tooBig(name, fmt.Sprintf("is %s", sizeText(st.Size())))
			}
		}
	}
	raw, err := io.ReadAll(io.LimitReader(r, MaxInputRead+1))
	if err != nil {
		return nil, inputError(name, err)
	}
	if len(raw) > MaxInputRead {
		return nil, tooBig(name, "is more than 8 MiB")
	}
	return raw, nil
}

func tooBig(name, size string) error {
	return &chat.Error{Code: chat.CodeLimitExceeded, Message: fmt.Sprintf("%s %s; the limit is 8 MiB", name, size),
		Details: map[string]any{"limit": MaxInputRead}}
}

func inputError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &chat.Error{Code: chat.CodeInvalidArgument, Message: fmt.Sprintf("cannot read %s: %v", name, err)}
}

// sizeText is "1.0 GiB (1073741824 bytes)".
func sizeText(n int64) string {
	const mib = 1 << 20
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB (%d bytes)", float64(n)/(1<<30), n)
	}
	return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/mib, n)
}
