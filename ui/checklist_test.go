package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestChecklist: the checklist is the picker's list: the preselected
// items start checked, space and tab check, enter returns what is
// checked, esc returns nothing; its rows show the detail and the note.
func TestChecklist(t *testing.T) {
	items := []ChecklistItem{
		{Name: "claude · user · fs", Detail: "npx -y @modelcontextprotocol/server-filesystem ~/src", Note: "folders → {roots}", Checked: true},
		{Name: "claude · user · git", Detail: "uvx mcp-server-git"},
		{Name: "gemini · user · time", Detail: "uvx mcp-server-time"},
	}
	c := newChecklist("Wrap which servers?", items)
	c.Update(tea.WindowSizeMsg{Width: 120, Height: 10})
	view := ansi.Strip(c.View().Content)
	for _, want := range []string{"Wrap which servers?", "1 of 3 servers checked", "[x] claude · user · fs", "server-filesystem ~/src", "folders → {roots}", "[ ] gemini · user · time"} {
		if !strings.Contains(view, want) {
			t.Errorf("the checklist lacks %q:\n%s", want, view)
		}
	}
	press := func(keys ...string) tea.Cmd {
		var cmd tea.Cmd
		for _, k := range keys {
			_, cmd = c.Update(keyPress(k))
		}
		return cmd
	}
	press("down", "space", "down", "tab")
	if cmd := press("enter"); cmd == nil || !c.ok {
		t.Fatal("enter did not end the checklist with a choice")
	}
	if got := c.chosen(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("chosen %v, want all three", got)
	}
	c = newChecklist("Wrap which servers?", items)
	if cmd := press("esc"); cmd == nil || c.ok {
		t.Fatal("esc did not cancel")
	}
}

// TestChecklistKeepsNames: at 60 columns the server's name stays whole;
// the note gives way first, to its last word.
func TestChecklistKeepsNames(t *testing.T) {
	items := []ChecklistItem{
		{Name: "claude · project · filesystem-readonly", Detail: "npx -y @modelcontextprotocol/server-filesystem ~/src", Note: "takes folders → {roots}", Checked: true},
		{Name: "claude · user · git", Detail: "uvx mcp-server-git"},
	}
	c := newChecklist("Wrap which servers?", items)
	c.Update(tea.WindowSizeMsg{Width: 60, Height: 10})
	view := ansi.Strip(c.View().Content)
	if !strings.Contains(view, "claude · project · filesystem-readonly") || !strings.Contains(view, "{roots}") || strings.Contains(view, "takes folders") {
		t.Errorf("at 60 columns:\n%s", view)
	}
}
