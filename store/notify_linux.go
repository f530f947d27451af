package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A commit reaches the database's files: in WAL mode it appends to the
// log (-wal), a checkpoint writes the file itself, and in rollback mode a
// commit writes the file and its journal. Written tells of such writes as
// the kernel reports them (inotify), so a process waiting for other
// processes' commits sleeps while nothing is written instead of polling.
// The report comes when the bytes are written, which can be before the
// commit is visible (SQLite publishes a WAL commit in the shared-memory
// index afterwards, which inotify does not see): look again a little later.

// writtenMask is what a watch of the database's directory reports: a file
// written, created, deleted or renamed into place, a file opened for
// writing closed (a process that dies, however it dies, closes the
// database and its lease file), and the directory itself going away.
const writtenMask = unix.IN_MODIFY | unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_TO | unix.IN_CLOSE_WRITE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// Written returns a channel that receives a value after any process writes
// the database file, its write-ahead log or its journal — this process's
// own commits too — or closes one of them or the lease file, as a process
// that dies does. Writes are coalesced: at most one value waits. The
// channel closes when ctx ends or the watch ends (the directory was
// removed or renamed); an error means the files cannot be watched here (no
// inotify, or its limit reached) and the caller must poll.
func (s *Store) Written(ctx context.Context) (<-chan struct{}, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", s.real, err)
	}
	dir, base := filepath.Split(s.real)
	if _, err := unix.InotifyAddWatch(fd, filepath.Clean(dir), writtenMask); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	// Non-blocking, so reads wait in the runtime's poller and Close ends
	// a read under way.
	f := os.NewFile(uintptr(fd), "inotify")
	names := [][]byte{[]byte(base), []byte(base + "-wal"), []byte(base + "-journal"), []byte(base + "-lease")}
	ch := make(chan struct{}, 1)
	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		f.Close()
	}()
	go func() {
		defer close(ch)
		defer close(stop)
		buf := make([]byte, 16<<10)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			written, gone := scanEvents(buf[:n], names)
			if written {
				select {
				case ch <- struct{}{}:
				default: // one waits already
				}
			}
			if gone {
				return
			}
		}
	}()
	return ch, nil
}

// scanEvents reads inotify events: whether one names a file of names (or
// events were lost), and whether the watch itself ended.
func scanEvents(b []byte, names [][]byte) (written, gone bool) {
	for len(b) >= unix.SizeofInotifyEvent {
		mask := binary.NativeEndian.Uint32(b[4:8])
		n := int(binary.NativeEndian.Uint32(b[12:16]))
		end := unix.SizeofInotifyEvent + n
		if end > len(b) {
			break
		}
		name := bytes.TrimRight(b[unix.SizeofInotifyEvent:end], "\x00")
		b = b[end:]
		switch {
		case mask&unix.IN_Q_OVERFLOW != 0:
			written = true
		case mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED) != 0:
			gone = true
		default:
			for _, want := range names {
				if bytes.Equal(name, want) {
					written = true
				}
			}
		}
	}
	return written, gone
}
