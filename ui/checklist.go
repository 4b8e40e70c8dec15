package ui

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// ChecklistItem is one line of a checklist: a name (unique in the list),
// a detail shown beside it (a command), a note in the state column, and
// whether it starts checked.
type ChecklistItem struct {
	Name, Detail, Note string
	Checked            bool
}

// Checklist asks the person to choose among items in the picker's own
// list component (the same rows, checkboxes, keys and colours): space or
// tab checks, the arrows move, enter confirms, esc or ctrl+c cancels. It
// returns the indexes chosen, in items' order, and false when cancelled.
// title says what is being chosen, on the line above the list.
func Checklist(title string, items []ChecklistItem, in io.Reader, out io.Writer) ([]int, bool, error) {
	c := newChecklist(title, items)
	final, err := tea.NewProgram(c, tea.WithInput(in), tea.WithOutput(out)).Run()
	if err != nil {
		return nil, false, err
	}
	done := final.(*checklist)
	if !done.ok {
		return nil, false, nil
	}
	return done.chosen(), true, nil
}

// checklist is the model of Checklist: a picker.State of the items
// (their names as paths) drawn by a listView, which it hands them on
// each frame.
type checklist struct {
	*common
	title  string
	items  []ChecklistItem
	byName map[string]int
	state  picker.State
	list   listView
	width  int
	ok     bool
}

func newChecklist(title string, items []ChecklistItem) *checklist {
	c := &checklist{
		common: &common{st: newStyles(true, noColorEnv()), keys: defaultKeys(), dkeys: defaultDialogKeys()},
		title:  title, items: items, byName: map[string]int{},
	}
	c.list = listView{common: c.common}
	repos := make([]vcsdetect.Repo, len(items))
	var checked []string
	for i, it := range items {
		c.byName[it.Name] = i
		repos[i] = vcsdetect.Repo{Path: it.Name, Name: it.Name, Kind: vcsdetect.KindGit, Branch: it.Detail}
		if it.Checked {
			checked = append(checked, it.Name)
		}
	}
	c.state.AddAll(repos)
	c.state.SetChecked(checked)
	return c
}

// rowTagger is the list's state column: each item's note.
func (c *checklist) rowTagger() func(path string) rowState {
	return func(path string) rowState {
		note := c.items[c.byName[path]].Note
		if note == "" {
			return rowState{}
		}
		// The note gives way before the name: whole, then its last
		// word ("takes folders → {roots}" becomes "{roots}").
		short := note
		if i := strings.LastIndexByte(note, ' '); i >= 0 {
			short = note[i+1:]
		}
		t, s := c.st.pending.Render(note), c.st.pending.Render(short)
		return rowState{full: t, mid: s, short: s}
	}
}

// help is the checklist's key line, from the list's bindings.
func (c *checklist) help() string {
	k := c.keys
	return c.st.helpKey.Render(keyName(k.Toggle)) + c.st.helpDesc.Render(" check • ") +
		c.st.helpKey.Render(keyName(k.Review)) + c.st.helpDesc.Render(" done • ") +
		c.st.helpKey.Render(keyName(checklistCancel)) + c.st.helpDesc.Render(" cancel")
}

// checklistCancel ends a checklist with nothing chosen.
var checklistCancel = key.NewBinding(key.WithKeys("esc", "ctrl+c", "ctrl+q"), key.WithHelp("esc", "cancel"))

func (c *checklist) Init() tea.Cmd { return nil }

func (c *checklist) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.width = msg.Width
		c.list.SetSize(msg.Width, max(msg.Height-3, 1))
	case tea.KeyPressMsg:
		k := c.keys
		switch {
		case key.Matches(msg, checklistCancel):
			return c, tea.Quit
		case key.Matches(msg, k.Review):
			c.ok = true
			return c, tea.Quit
		case key.Matches(msg, k.Toggle, k.MarkDown):
			c.state.Toggle()
			if key.Matches(msg, k.MarkDown) {
				c.state.Move(1)
			}
		case key.Matches(msg, k.MarkUp):
			c.state.Toggle()
			c.state.Move(-1)
		case key.Matches(msg, c.dkeys.Up):
			c.state.Move(-1)
		case key.Matches(msg, c.dkeys.Down):
			c.state.Move(1)
		}
		c.list.follow(c.state.Cursor(), c.state.ShownLen())
	}
	return c, nil
}

func (c *checklist) View() tea.View {
	w := max(c.width, 20)
	head := c.st.title.Render(cut(safetext.Escape(c.title), w, "…")) + "  " +
		c.st.dim.Render(itoa(c.state.CheckedCount())+" of "+plural(c.state.Len(), "server", "servers")+" checked")
	return tea.NewView(strings.Join([]string{head, c.list.View(listFrame{rows: &c.state, state: c.rowTagger()}), "", c.help()}, "\n"))
}

// chosen is the checked items' indexes, in items' order.
func (c *checklist) chosen() []int {
	var out []int
	for i, it := range c.items {
		if c.state.IsChecked(it.Name) {
			out = append(out, i)
		}
	}
	return out
}
