package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// rowY is the screen line the shown row i is drawn on, read off the
// screen, so the test does not share rowAt's arithmetic.
func rowY(t *testing.T, m *Model, label string) int {
	t.Helper()
	for y, line := range strings.Split(screen(m), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (strings.Contains(line, "] "+label+" ") || strings.HasSuffix(line, "] "+label)) {
			return y
		}
	}
	t.Fatalf("no row %q on screen:\n%s", label, screen(m))
	return -1
}

func click(m *Model, x, y int) {
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// TestMouse: a click on a row moves the cursor there, a click on its box
// toggles it, the wheel moves the cursor; the same while a query is typed;
// the view asks for the mouse unless NoMouse, which makes it do nothing.
func TestMouse(t *testing.T) {
	m := fixture(t, demoRepos()...)
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("the view does not ask for the mouse")
	}
	click(m, 20, rowY(t, m, "tools/cli"))
	if c, _ := m.picker.Current(); c.Path != "/work/demo/tools/cli" || m.picker.CheckedCount() != 0 {
		t.Fatalf("click on a row: cursor on %s, %d checked; want tools/cli, none", c.Path, m.picker.CheckedCount())
	}
	click(m, 3, rowY(t, m, "web"))
	if c, _ := m.picker.Current(); c.Path != "/work/demo/web" || !m.picker.IsChecked("/work/demo/web") {
		t.Fatalf("click on a box: cursor on %s, web checked %v", c.Path, m.picker.IsChecked("/work/demo/web"))
	}
	click(m, 3, rowY(t, m, "web"))
	if m.picker.IsChecked("/work/demo/web") {
		t.Fatal("a second click on the box did not uncheck")
	}
	click(m, 20, rowY(t, m, "api-wt"))
	before := m.picker.Cursor()
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.picker.Cursor() != before+1 {
		t.Fatalf("wheel down: cursor %d, want %d", m.picker.Cursor(), before+1)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.picker.Cursor() != before-1 {
		t.Fatalf("wheel up twice: cursor %d, want %d", m.picker.Cursor(), before-1)
	}
	// Below the rows, on the header and on the status line: nothing.
	cur := m.picker.Cursor()
	for _, y := range []int{0, 15, 22, 23} {
		click(m, 3, y)
	}
	if m.picker.Cursor() != cur || m.picker.CheckedCount() != 0 {
		t.Fatalf("clicks off the rows moved the cursor to %d or checked %d", m.picker.Cursor(), m.picker.CheckedCount())
	}

	// While a query is typed the filter line pushes the rows down.
	send(m, "t", "o")
	click(m, 3, rowY(t, m, "tools/cli"))
	if !m.picker.IsChecked("/work/demo/tools/cli") || m.filter.Value() != "to" {
		t.Fatalf("click on a box while filtering: checked %v, mode %d", m.picker.IsChecked("/work/demo/tools/cli"), m.mode())
	}

	// The dialog takes no clicks.
	m = fixture(t, demoRepos()...)
	y := rowY(t, m, "api")
	openDialog(t, m, mkRoot("/work/demo/api"))
	click(m, 3, y)
	if m.picker.CheckedCount() != 0 || m.mode() != modeDialog {
		t.Fatal("a click went through the dialog")
	}

	// NoMouse: the terminal keeps the mouse.
	m = fixture(t, demoRepos()...)
	m.cfg.NoMouse = true
	if m.View().MouseMode != tea.MouseModeNone {
		t.Fatal("NoMouse still asks for the mouse")
	}
	click(m, 3, rowY(t, m, "web"))
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.picker.Cursor() != 0 || m.picker.CheckedCount() != 0 {
		t.Fatal("NoMouse: the mouse still acts")
	}
}

// TestMouseScrolledList: with the list scrolled, a click picks the row
// drawn there, not the row that index would have unscrolled.
func TestMouseScrolledList(t *testing.T) {
	var repos = demoRepos()
	for i := range 60 {
		repos = append(repos, repo("many/r"+itoa(100+i), "main"))
	}
	m := fixture(t, repos...)
	send(m, "end")
	y := rowY(t, m, "many/r150")
	click(m, 3, y)
	if !m.picker.IsChecked("/work/demo/many/r150") || m.picker.CheckedCount() != 1 {
		t.Fatalf("click on a scrolled row checked the wrong one (%d checked)", m.picker.CheckedCount())
	}
}
