//go:build !benchhooks

package ui

import tea "github.com/charmbracelet/bubbletea"

// benchHooks is the screen itself: only a build with -tags benchhooks
// (benchhooks.go) can quit after its first frame.
func benchHooks(root *model) tea.Model { return root }
