package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// sgrClick is what a terminal sends for a left click at the 0-based cell
// (x, y) in SGR mouse mode (press, then release).
func sgrClick(x, y int) string {
	return fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1)
}

// TestE2EMouse: through a real terminal (tmux passes the bytes a mouse
// click makes), a click on a row's box checks it and the wheel moves the
// cursor; y then shares the clicked folder. With --no-mouse the same bytes
// do not check anything.
func TestE2EMouse(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta", "gamma")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})
	tt.waitRows(3)
	screen := tt.capture()
	y := -1
	for i, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "] beta") {
			y = i
		}
	}
	if y < 0 {
		t.Fatalf("no beta row:\n%s", screen)
	}
	tt.send("-l", sgrClick(3, y))
	tt.waitFor("beta checked by a click", func(s string) bool {
		r := listRows(s)
		i := rowIndex(r, "beta")
		return i >= 0 && r[i].checked && r[i].cursor && !r[0].checked
	})
	tt.send("-l", "\x1b[<65;10;4M") // wheel down
	tt.waitFor("the wheel moved the cursor", func(s string) bool {
		r := listRows(s)
		i := rowIndex(r, "gamma")
		return i >= 0 && r[i].cursor
	})
	tt.send("Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	tt.quit()
	roots := readPrinted(t, out)
	if len(roots) != 1 || filepath.Base(roots[0].Path) != "beta" {
		t.Fatalf("--print after a click: %+v, want beta", roots)
	}

	// --no-mouse: the terminal keeps the mouse, the clicks reach nothing.
	tt = startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--no-mouse", tree}})
	tt.waitRows(3)
	tt.send("-l", sgrClick(3, y))
	tt.send("Down") // a key after the click, so the click was read before it
	tt.waitFor("the key moved the cursor", func(s string) bool {
		r := listRows(s)
		return len(r) == 3 && r[1].cursor
	})
	for _, r := range listRows(tt.capture()) {
		if r.checked {
			t.Fatalf("--no-mouse: a click checked %q", r.label())
		}
	}
}
