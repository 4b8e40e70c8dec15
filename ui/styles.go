package ui

import (
	"image/color"
	"os"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/rootpick/rootpick/ui/style"
)

// shade is one colour role as a pair for a light and a dark background,
// picked with lipgloss.LightDark. Every value is an xterm 256-colour
// palette entry written as its exact RGB, so its contrast is known: the
// 16 basic ANSI colours are avoided because each terminal theme redefines
// them. TestContrast holds every text colour to WCAG AA (4.5:1) against
// typical backgrounds of its theme, and the border to 3:1 (non-text).
type shade struct{ light, dark string }

var (
	shadeAccent = shade{"#af005f", "#ff87d7"} // 125 / 212
	shadeDim    = shade{"#626262", "#a8a8a8"} // 241 / 248
	shadeKey    = shade{"#444444", "#d0d0d0"} // 238 / 252: help keys
	shadeGreen  = shade{"#005f00", "#5fd787"} // 22 / 78
	shadeBlue   = shade{"#005faf", "#87afd7"} // 25 / 110
	shadeOchre  = shade{"#875f00", "#d7af5f"} // 94 / 179
	shadeOrange = shade{"#875f00", "#ffaf00"} // 94 / 214
	shadeRed    = shade{"#af0000", "#ff8787"} // 124 / 210
	shadeBorder = shade{"#808080", "#808080"} // 244: lines, not text
)

// styles is the palette for one background. Colour never carries a state
// alone: every state also has its word or glyph, so the screen reads the
// same with NO_COLOR.
type styles struct {
	title, dim, cursor, checked, branch, kind, added, removed, warn, ok, pending, err, filter ink

	// plain is no style; the matches' styles mark the characters the
	// filter matched in a row (matchStyle) on plain text, the highlighted
	// row and the branch.
	plain, plainMatch, cursorMatch, branchMatch ink

	dialog            lipgloss.Style
	helpKey, helpDesc ink // the key help
	spinner           ink
	// border is the colour of the details pane's rule (non-text), rule
	// the rule's ink.
	border color.Color
	rule   ink

	dark, noColor bool
}

// newStyles returns the palette for a dark or light background; with
// noColor it sets no colour at all (NO_COLOR), keeping bold, underline
// and reverse.
func newStyles(dark, noColor bool) styles {
	pick := lipgloss.LightDark(dark)
	col := func(s shade) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return pick(lipgloss.Color(s.light), lipgloss.Color(s.dark))
	}
	fg := func(s shade) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(col(s))
	}
	in := func(s shade, bold bool) ink { return inkOf(fg(s).Bold(bold)) }
	dialog := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !noColor {
		dialog = dialog.BorderForeground(col(shadeAccent))
	}
	st := styles{
		title:    in(shadeAccent, true),
		dim:      in(shadeDim, false),
		cursor:   in(shadeAccent, true),
		checked:  in(shadeGreen, false),
		branch:   in(shadeBlue, false),
		kind:     in(shadeOchre, false),
		added:    in(shadeGreen, false),
		removed:  in(shadeRed, false),
		warn:     in(shadeOrange, false),
		ok:       in(shadeGreen, false),
		pending:  in(shadeOrange, false),
		err:      in(shadeRed, true),
		dialog:   dialog,
		filter:   in(shadeAccent, false),
		helpKey:  in(shadeKey, true),
		helpDesc: in(shadeDim, false),
		spinner:  in(shadeAccent, false),
		border:   col(shadeBorder),
		dark:     dark,
		noColor:  noColor,
	}
	st.plain = inkOf(lipgloss.NewStyle())
	st.rule = inkOf(lipgloss.NewStyle().Foreground(st.border))
	st.plainMatch = inkOf(matchStyle(st.plain.Style))
	st.cursorMatch = inkOf(matchStyle(st.cursor.Style))
	st.branchMatch = inkOf(matchStyle(st.branch.Style))
	return st
}

// matchStyle marks the characters the filter matched: underlined and bold
// on top of the row's own style, so a match is not told by colour alone.
func matchStyle(base lipgloss.Style) lipgloss.Style {
	return base.Underline(true).Bold(true)
}

// ink is a style with its escape sequences worked out once (style.Ink):
// every style of the palette is one.
type ink = style.Ink

// inkOf is style.InkOf.
func inkOf(st lipgloss.Style) ink { return style.InkOf(st) }

// inputStyles are the filter query's styles in the palette: the bubble's
// defaults use ANSI 240 and 7, unreadable on one background or the other.
func (st styles) inputStyles() textinput.Styles {
	s := textinput.DefaultStyles(st.dark)
	state := textinput.StyleState{Text: lipgloss.NewStyle(), Placeholder: st.dim.Style, Suggestion: st.dim.Style, Prompt: st.filter.Style}
	s.Focused, s.Blurred = state, state
	s.Cursor.Color = lipgloss.NoColor{}
	if !st.noColor {
		s.Cursor.Color = lipgloss.LightDark(st.dark)(lipgloss.Color(shadeAccent.light), lipgloss.Color(shadeAccent.dark))
	}
	s.Cursor.Shape = tea.CursorBlock
	// A steady cursor, as fzf's: the query line is always focused, and a
	// blink would redraw the screen twice a second for nothing.
	s.Cursor.Blink = false
	return s
}

// noColorEnv reports whether NO_COLOR asks for no colour: set and not
// empty, whatever its value (https://no-color.org). colorprofile only
// honours values strconv.ParseBool reads as true, so NO_COLOR=yes would
// otherwise still colour the screen.
func noColorEnv() bool { return os.Getenv("NO_COLOR") != "" }
