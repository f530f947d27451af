package ui

import "testing"

// Answering an MCP client's question drives no run, and the screen stops
// showing one as busy.
func TestDriveWithoutARunEnds(t *testing.T) {
	k := newKit(t)
	k.m.driving = true
	msg, ok := driveRun(k.svc, "")().(driveDoneMsg)
	if !ok || msg.err != nil {
		t.Fatalf("driving no run: %#v", msg)
	}
	k.m.Update(msg)
	if k.m.driving {
		t.Error("the screen still shows a run going on")
	}
}
