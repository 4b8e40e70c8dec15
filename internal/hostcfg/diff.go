package hostcfg

import (
	"fmt"
	"strings"

	"github.com/rootpick/rootpick/internal/redact"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// diffLine is one line of a diff: ' ', '-' or '+', and its text without
// the line end; eol says the line ended with one.
type diffLine struct {
	op   byte
	text string
	eol  bool
}

// Diff is the unified diff (as diff -u writes it) from a to b, whose names
// are shown as oldName and newName; "" when they are equal. The lines are
// matched with go-diff's line mode (Myers' algorithm), which go-git already
// brings into the program.
//
// Every line shown, context and changed alike, has its secrets hidden
// (redact.Text: URL credentials, tokens, the values of secret-named
// settings and flags). Each file is redacted as a whole, so that a flag
// on one line hides the value on the next ("--api-key",\n "X"); the lines
// are matched on the real text, so a change in a secret alone still shows
// as a changed line.
func Diff(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	shownA, shownB := redactedLines(string(a)), redactedLines(string(b))
	dmp := diffmatchpatch.New()
	ra, rb, table := dmp.DiffLinesToRunes(string(a), string(b))
	var lines []diffLine
	// oldLine and newLine count the lines of a and b taken so far.
	oldLine, newLine := 0, 0
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), table) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffEqual:
			// context: ' '
		}
		text := d.Text
		for text != "" {
			_, rest, eol := strings.Cut(text, "\n")
			var line string
			switch op {
			case '-':
				line = shownA[oldLine]
				oldLine++
			case '+':
				line = shownB[newLine]
				newLine++
			default:
				line = bothShown(shownA[oldLine], shownB[newLine])
				oldLine++
				newLine++
			}
			lines = append(lines, diffLine{op, line, eol})
			text = rest
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// oldAt and newAt count the lines before lines[i] on each side.
	oldAt, newAt := make([]int, len(lines)+1), make([]int, len(lines)+1)
	for i, l := range lines {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if l.op != '+' {
			oldAt[i+1]++
		}
		if l.op != '-' {
			newAt[i+1]++
		}
	}
	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change that is at most
		// 2*diffContext unchanged lines from the one before.
		start := max(0, i-diffContext)
		end := i
		for j := i; j < len(lines); j++ {
			if lines[j].op != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		end = min(len(lines), end+diffContext)
		oldN, newN := oldAt[end]-oldAt[start], newAt[end]-newAt[start]
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldAt[start], oldN), hunkRange(newAt[start], newN))
		for _, l := range lines[start:end] {
			out.WriteByte(l.op)
			out.WriteString(l.text)
			out.WriteByte('\n')
			if !l.eol {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// hunkRange is a hunk header's "start,count", with diff -u's conventions:
// the count is left out when it is 1, and an empty side starts at the line
// before.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// redactedLines is s with its secrets hidden, cut into lines (without
// their line ends).
func redactedLines(s string) []string {
	lines := strings.Split(redact.Text(s), "\n")
	if len(lines) != strings.Count(s, "\n")+1 { // redact.Text keeps lines; if it ever did not, redact line by line
		lines = strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = redact.Text(l)
		}
	}
	return lines
}

// bothShown is an unchanged line as shown: its two redactions differ only
// when a line before it, on one side alone, made it a secret's value (a
// flag deleted or added above it); then the one that hides something is
// shown, and if both hide something different, the whole line is hidden.
func bothShown(a, b string) string {
	switch {
	case a == b:
		return a
	case !strings.Contains(b, redact.Marker):
		return a
	case !strings.Contains(a, redact.Marker):
		return b
	}
	indent := len(a) - len(strings.TrimLeft(a, " \t"))
	return a[:indent] + redact.Marker
}
