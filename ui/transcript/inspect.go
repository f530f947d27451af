package transcript

import "github.com/charmbracelet/bubbles/viewport"

// What the screen's tests and benchmarks read of the transcript, and the
// viewport they scroll by hand.

// Viewport is the viewport over the transcript's lines.
func (t *Model) Viewport() *viewport.Model { return &t.vp }

// SetFollow says whether the transcript stays on its newest line.
func (t *Model) SetFollow(on bool) { t.follow = on }

// Cached is the entries drawn and kept.
func (t *Model) Cached() Entries { return t.cache }

// Undrawn is how many of the oldest messages the last render left out.
func (t *Model) Undrawn() int { return t.undrawn }
