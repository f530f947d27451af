package ui

import "github.com/charmbracelet/lipgloss"

// Styles are built once, not per frame.
var (
	stUser   = lipgloss.NewStyle().Foreground(lipgloss.Color("12")).Bold(true)
	stAgent  = lipgloss.NewStyle().Foreground(lipgloss.Color("10")).Bold(true)
	stNotice = lipgloss.NewStyle().Foreground(lipgloss.Color("8")).Italic(true)
	stBold   = lipgloss.NewStyle().Bold(true)
	stCode   = lipgloss.NewStyle().Foreground(lipgloss.Color("13"))
	stDim    = lipgloss.NewStyle().Faint(true)
	stError  = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	stStatus = lipgloss.NewStyle().Foreground(lipgloss.Color("7")).Background(lipgloss.Color("236"))
	stTab    = lipgloss.NewStyle().Padding(0, 1).Foreground(lipgloss.Color("8"))
	// The shown tab is bracketed, so it stands out with no colour too
	// (NO_COLOR draws no attribute, bold included); brackets take the
	// cells the other tabs' padding does.
	stTabActive = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("13")).
			Border(lipgloss.Border{Left: "[", Right: "]"}, false, true, false, true)
	stPane = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("13")).Padding(0, 1)
	// Waiting for the focus: dim, and square corners, so focus shows with
	// no colour too (NO_COLOR).
	stPaneDim    = stPane.Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("8"))
	stHelpColumn = lipgloss.NewStyle().PaddingRight(2)
	stDialog     = lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(lipgloss.Color("11")).Padding(0, 1)
	stDialogDim  = stDialog.Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("8"))
	stLinkHost   = lipgloss.NewStyle().Bold(true).Underline(true).Foreground(lipgloss.Color("11"))

	stateStyles = map[string]lipgloss.Style{
		"pending":   lipgloss.NewStyle().Foreground(lipgloss.Color("11")),
		"answered":  lipgloss.NewStyle().Foreground(lipgloss.Color("10")),
		"cancelled": lipgloss.NewStyle().Foreground(lipgloss.Color("9")),
		"expired":   lipgloss.NewStyle().Foreground(lipgloss.Color("8")),
	}
)

// paneStyle and dialogStyle frame the pane's form or dialog: bright while
// it has the focus, dim while it waits for it.
func paneStyle(focused bool) lipgloss.Style {
	if focused {
		return stPane
	}
	return stPaneDim
}

func dialogStyle(focused bool) lipgloss.Style {
	if focused {
		return stDialog
	}
	return stDialogDim
}
