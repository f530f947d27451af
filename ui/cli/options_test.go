package cli

import (
	"testing"

	"github.com/spf13/pflag"
)

// dbArgs is a command line naming the database /tmp/x.db.
func dbArgs(command string) Args {
	fs := pflag.NewFlagSet(command, pflag.ContinueOnError)
	addFlags(fs, globalFlags)
	fs.Parse([]string{"--db", "/tmp/x.db"})
	return Args{Command: command, flags: fs}
}

// Every headless command but the long-lived server maps the database for
// its one read (chat.Options.ShortLived); the chat screen and mcp serve
// keep the bounded page cache, which a long life needs.
func TestShortLivedCommandsMapTheDatabase(t *testing.T) {
	t.Setenv("FOLLOWUP_PROVIDER", "offline")
	long := 0
	for _, c := range commands {
		if !c.NeedsDB {
			continue
		}
		o, err := Options(dbArgs(c.Name))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if o.ShortLived == c.LongLived {
			t.Errorf("%s: ShortLived = %v", c.Name, o.ShortLived)
		}
		if c.LongLived {
			long++
		}
	}
	if serve := lookup("mcp serve"); serve == nil || !serve.LongLived || long != 1 {
		t.Errorf("mcp serve should be the one long-lived command (%d are)", long)
	}
	o, err := Options(dbArgs(""))
	if err != nil || o.ShortLived {
		t.Errorf("the chat screen: ShortLived = %v, %v", o.ShortLived, err)
	}
}
