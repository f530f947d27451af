package store

import (
	"net/url"
	"strconv"
)

// Option adjusts how Open reads the database.
type Option func(*options)

type options struct{ mmap int }

// mmapSize is how much of the file a reader connection maps under MapFile:
// every page of a database well beyond the budgeted size (docs/performance.md).
const mmapSize = 1 << 30

// MapFile has the reader connections map the file instead of copying each
// page they read into their own page cache. A short-lived process (a
// headless command) reads cold pages faster that way: `pending --json` on
// the large database spends 1.3 ms reading instead of 2.9. But every mapped
// page the process touches stays in its resident memory, once per reader
// connection, for as long as it runs: a chat screen that switched chats 100
// times held 54 MB (64 MB on a 500 MB database) instead of 25. So only
// short-lived processes map; by default, readers use a bounded page cache.
func MapFile() Option { return func(o *options) { o.mmap = mmapSize } }

// mapped adds the readers' mmap_size to a reader connection's DSN.
func mapped(dsn string, opts []Option) string {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return dsn + "&" + url.Values{"_pragma": {"mmap_size(" + strconv.Itoa(o.mmap) + ")"}}.Encode()
}
