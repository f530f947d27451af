//go:build !linux

package store

import (
	"context"
	"errors"
)

// Written says the database's files cannot be watched on this platform
// (notify_linux.go uses inotify): the caller polls.
func (s *Store) Written(ctx context.Context) (<-chan struct{}, error) {
	return nil, errors.New("watching the database's files needs inotify")
}
