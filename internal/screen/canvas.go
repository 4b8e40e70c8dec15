package screen

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// canvas holds the cells of the frame on screen and the lines it was drawn
// from, so that a new frame parses only the lines that changed: a ↓ key
// changes a few of the 40, and parsing the whole frame into cells was a
// fifth of the picker's CPU per key.
type canvas struct {
	cells uv.ScreenBuffer
	lines []string
	// clean: every line of the frame ends with no style or link left open,
	// so that each draws the same alone as after the lines above it.
	clean bool
}

// paint draws content into c.cells: the lines that differ from the last
// frame's when both frames' lines are clean, else (or with repaint) the
// whole frame, as uv.StyledString draws it.
func (c *canvas) paint(content string, repaint bool) {
	lines := strings.Split(content, "\n")
	clean := !strings.Contains(content, "\r")
	for _, l := range lines {
		if !clean {
			break
		}
		clean = endsClean(l)
	}
	if repaint || !clean || !c.clean {
		c.cells.Clear()
		uv.NewStyledString(content).Draw(c.cells, c.cells.Bounds())
	} else {
		w := c.cells.Width()
		for y := range c.cells.Height() {
			line, old := lineAt(lines, y), lineAt(c.lines, y)
			if line != old {
				uv.NewStyledString(line).Draw(c.cells, uv.Rect(0, y, w, 1))
			}
		}
	}
	c.lines, c.clean = lines, clean
}

func lineAt(lines []string, y int) string {
	if y < len(lines) {
		return lines[y]
	}
	return ""
}

// endsClean says whether line leaves the pen as it found it: every escape
// sequence in it is an SGR (a style), and the last of them resets all
// attributes (ESC[m or ESC[0m). Anything else (cursor moves, OSC links,
// strings) is not clean, and its frame is drawn whole.
func endsClean(line string) bool {
	reset := true
	for i := 0; i < len(line); i++ {
		if line[i] != '\x1b' {
			continue
		}
		j, params, ok := sgrAt(line, i)
		if !ok {
			return false
		}
		reset = params == "" || params == "0"
		i = j - 1
	}
	return reset
}

// sgrAt reads the style sequence (ESC [ params m) at line[i]: the index
// after it, its parameters, and whether it is one.
func sgrAt(line string, i int) (int, string, bool) {
	if i+1 >= len(line) || line[i+1] != '[' {
		return 0, "", false
	}
	j := i + 2
	for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';' || line[j] == ':') {
		j++
	}
	if j >= len(line) || line[j] != 'm' {
		return 0, "", false
	}
	return j + 1, line[i+2 : j], true
}
