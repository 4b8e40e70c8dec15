package ui

import (
	"context"
	"image/color"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unsafe"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui/fleet"
	"github.com/rootpick/rootpick/vcsdetect"
)

// Typical terminal backgrounds: black, VS Code's dark, One Dark; white,
// and two off-whites of light themes.
var (
	darkBackgrounds  = []string{"#000000", "#1e1e1e", "#282c34"}
	lightBackgrounds = []string{"#ffffff", "#fafafa", "#f5f5f5"}
)

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func TestContrastFormula(t *testing.T) {
	if got := contrast(lipgloss.Color("#000000"), lipgloss.Color("#ffffff")); math.Abs(got-21) > 0.01 {
		t.Fatalf("black on white = %.2f, want 21", got)
	}
	// ANSI 241 (#626262) on One Dark: the issue measured help text at 1.7–2.5:1.
	if got := contrast(lipgloss.Color("#626262"), lipgloss.Color("#282c34")); got < 1.7 || got > 2.5 {
		t.Fatalf("#626262 on #282c34 = %.2f, want about 2.3", got)
	}
}

// colourOf reports a style colour's value, rejecting the 16 basic ANSI
// colours: each terminal theme redefines them, so their contrast is
// unknown.
func colourOf(t *testing.T, name string, c color.Color) (color.Color, bool) {
	t.Helper()
	switch c.(type) {
	case nil, lipgloss.NoColor:
		return nil, false
	case ansi.BasicColor:
		t.Errorf("%s uses basic ANSI colour %v, whose RGB depends on the terminal's palette", name, c)
		return nil, false
	}
	return c, true
}

// themeColours lists every foreground the screen draws text in, for one
// theme: each lipgloss.Style of the palette (found by reflection, so a
// new style is checked without being listed here), the filter input's and
// the spinner's; and the non-text colours (borders).
func themeColours(t *testing.T, m *Model) (text, lines map[string]color.Color) {
	t.Helper()
	text, lines = map[string]color.Color{}, map[string]color.Color{}
	pal := m.st
	v := reflect.ValueOf(&pal).Elem()
	for i := range v.NumField() {
		f := v.Field(i) // unexported: read through its address
		var st lipgloss.Style
		switch v := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(type) {
		case lipgloss.Style:
			st = v
		case ink:
			st = v.Style
		default:
			continue
		}
		name := "styles." + v.Type().Field(i).Name
		c, ok := colourOf(t, name, st.GetForeground())
		switch {
		case ok && name == "styles.rule": // the pane's border: a line, not text
			lines[name] = c
		case ok:
			text[name] = c
		}
		if c, ok := colourOf(t, name+" border", st.GetBorderTopForeground()); ok {
			lines[name+" border"] = c
		}
	}
	in := m.filter.Styles()
	for name, st := range map[string]lipgloss.Style{
		"filter placeholder": in.Focused.Placeholder, "filter prompt": in.Focused.Prompt,
		"filter text": in.Focused.Text, "filter suggestion": in.Focused.Suggestion,
		"spinner": m.walk.spinner.Style,
	} {
		if c, ok := colourOf(t, name, st.GetForeground()); ok {
			text[name] = c
		}
	}
	if c, ok := colourOf(t, "filter cursor", in.Cursor.Color); ok {
		lines["filter cursor"] = c
	}
	if c, ok := colourOf(t, "styles.border", m.st.border); ok {
		lines["styles.border"] = c
	}
	return text, lines
}

// TestContrast: every text colour meets WCAG AA (4.5:1) against typical
// backgrounds of its theme, and every line colour 3:1 (WCAG 1.4.11),
// in the dark palette (the default until the terminal answers) and in
// the light one (after a light tea.BackgroundColorMsg).
func TestContrast(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, theme := range []struct {
		name string
		bg   []string
		msg  tea.Msg
	}{
		{"dark (default)", darkBackgrounds, nil},
		{"light", lightBackgrounds, tea.BackgroundColorMsg{Color: lipgloss.Color("#fafafa")}},
		{"dark", darkBackgrounds, tea.BackgroundColorMsg{Color: lipgloss.Color("#1e1e1e")}},
	} {
		m := New(Config{Dir: "/work/demo"})
		if theme.msg != nil {
			m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")}) // flip once, then to the theme
			m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#000000")})
			m.Update(theme.msg)
		}
		text, lines := themeColours(t, m)
		if len(text) < 10 {
			t.Fatalf("%s: only %d text colours found: %v", theme.name, len(text), text)
		}
		for name, c := range text {
			for _, bg := range theme.bg {
				if r := contrast(c, lipgloss.Color(bg)); r < 4.5 {
					t.Errorf("%s theme: %s %v on %s is %.2f:1, below WCAG AA 4.5:1", theme.name, name, c, bg, r)
				}
			}
		}
		for name, c := range lines {
			for _, bg := range theme.bg {
				if r := contrast(c, lipgloss.Color(bg)); r < 3 {
					t.Errorf("%s theme: %s %v on %s is %.2f:1, below 3:1 for non-text", theme.name, name, c, bg, r)
				}
			}
		}
	}
}

// colourSGR finds colour in SGR sequences: foreground, background or
// underline colour, basic, bright, 256 or RGB.
var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

func colourSGR(s string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' }) {
			p, _, _ = strings.Cut(p, ":")
			n := 0
			for _, r := range p {
				n = n*10 + int(r-'0')
			}
			if n >= 30 && n <= 38 || n >= 40 && n <= 48 || n == 58 || n >= 90 && n <= 97 || n >= 100 && n <= 107 {
				out = append(out, m[0])
				break
			}
		}
	}
	return out
}

// lookScreens draws every kind of screen: the list with checked, shared
// and withdrawn rows and server states, the details pane, the scan line,
// the filter, the help, the dialog, the server pane and the empty state.
func lookScreens(t *testing.T) []string {
	t.Helper()
	var out []string
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api")})
	m.review.sh.Withdraw("/work/demo/web", "deleted")
	m.onHubEvent(connectedEvent("demo", "rootpick-demo"))
	m.onHubEvent(fetchedEvent("demo"))
	m.onHubEvent(mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Err: context.DeadlineExceeded})
	m.onHubEvent(mcpconn.Event{Server: "c", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Second})
	m.onHubEvent(mcpconn.Event{Server: "d", Kind: mcpconn.Mismatch, Text: "lacks /x"})
	send(m, "space", "down", "space", "down", "space")
	out = append(out, m.View().Content)
	m.walk.running = true
	m.walk.stats = vcsdetect.Stats{Dirs: 3, Skipped: 1, Warnings: 1}
	m.setNote("a note", true)
	out = append(out, m.View().Content)
	m.walk.running = false
	send(m, "a")
	out = append(out, m.View().Content)
	send(m, "esc", "?")
	out = append(out, m.View().Content)
	send(m, "x", "ctrl+o")
	out = append(out, m.View().Content)
	send(m, "ctrl+o")
	openDialog(t, m, mkRoot("/work/demo/api-wt"), mkRoot("/work/demo/tools/cli"))
	out = append(out, m.View().Content)
	e := fixture(t)
	out = append(out, e.View().Content)
	return out
}

// TestNoColor: with NO_COLOR set to any non-empty value (no-color.org;
// "yes" is one colorprofile would not honour) no screen holds a colour,
// while bold and underline may stay, and no background colour is asked
// for; without it the same screens are coloured (so the check can fail).
func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	var coloured int
	for _, s := range lookScreens(t) {
		if len(colourSGR(s)) > 0 {
			coloured++
		}
	}
	if coloured < 6 {
		t.Fatalf("only %d screens hold colour without NO_COLOR: the check would prove nothing", coloured)
	}

	t.Setenv("NO_COLOR", "yes")
	for i, s := range lookScreens(t) {
		if c := colourSGR(s); len(c) > 0 {
			t.Errorf("screen %d has colour with NO_COLOR: %q\n%s", i, c[:min(len(c), 5)], ansi.Strip(s))
		}
		if i == 0 && !strings.Contains(s, "\x1b[1") {
			t.Errorf("with NO_COLOR the title should stay bold:\n%q", s)
		}
	}
	m := New(Config{Dir: "/work/demo"})
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if m.st.dim.GetForeground() != (lipgloss.NoColor{}) && m.st.dim.GetForeground() != nil {
		t.Errorf("a background answer brought colour back under NO_COLOR: %v", m.st.dim.GetForeground())
	}
}

// TestThemeFollowsBackground: the palette is the dark one until the
// terminal answers, then the one for its background; the details pane,
// which is kept between frames, is drawn again in the new colours.
func TestThemeFollowsBackground(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	darkDim := "38;2;168;168;168"   // #a8a8a8
	lightDim := "38;2;98;98;98"     // #626262
	lightRule := "38;2;128;128;128" // #808080, both themes
	if v := m.View().Content; !strings.Contains(v, darkDim) || strings.Contains(v, lightDim) {
		t.Fatalf("before the background is known the screen should use the dark palette:\n%q", v)
	}
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#fafafa")})
	v := m.View().Content
	if !strings.Contains(v, lightDim) || strings.Contains(v, darkDim) {
		t.Fatalf("after a light background the screen should use the light palette only:\n%q", v)
	}
	if !strings.Contains(v, lightRule) {
		t.Errorf("the details pane's rule is not drawn:\n%q", v)
	}
	pane := strings.Split(v, "\n")[2]
	if strings.Contains(pane, darkDim) {
		t.Errorf("the details pane kept its dark colours: %q", pane)
	}
}

// TestInitAsksTheBackground: Init asks the terminal for its background,
// unless NO_COLOR makes the answer useless.
func TestInitAsksTheBackground(t *testing.T) {
	asks := func() bool {
		m := New(Config{Dir: "/work/demo", Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
			return vcsdetect.Stats{}, nil
		}})
		batch, ok := m.Init()().(tea.BatchMsg)
		if !ok {
			t.Fatal("Init does not return a batch")
		}
		for _, c := range batch {
			if c != nil && reflect.ValueOf(c).Pointer() == reflect.ValueOf(tea.RequestBackgroundColor).Pointer() {
				return true
			}
		}
		return false
	}
	t.Setenv("NO_COLOR", "")
	if !asks() {
		t.Error("Init does not ask for the background colour")
	}
	t.Setenv("NO_COLOR", "1")
	if asks() {
		t.Error("Init asks for the background colour under NO_COLOR")
	}
}

// scanningModel is a model mid-scan: two repositories found so far, the
// walk's counts, no command run.
func scanningModel(t *testing.T, w, h int) *Model {
	t.Helper()
	m := New(Config{Dir: "/work/demo", ScanOptions: vcsdetect.Options{MaxDepth: 4}})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.walk.gen, m.walk.running = 1, true
	m.Update(scanBatchMsg{gen: 1, repos: []vcsdetect.Repo{repo("api", "main"), repo("tools/cli", "main")}, progress: true,
		stats: vcsdetect.Stats{Dirs: 1234, Repos: 2, Skipped: 7, Warnings: 2}, elapsed: 2500 * time.Millisecond})
	return m
}

// TestSpinnerTicksOnlyWhileScanning: a tick turns the spinner and moves
// the elapsed time while the scan runs; the tick after the scan ends
// starts no other.
func TestSpinnerTicksOnlyWhileScanning(t *testing.T) {
	m := scanningModel(t, 80, 24)
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m.walk.start = start
	before := screen(m)
	tick := m.walk.spinner.Tick().(spinner.TickMsg)
	tick.Time = start.Add(3200 * time.Millisecond)
	_, cmd := m.Update(tick)
	if cmd == nil {
		t.Fatal("a tick while scanning must ask for the next one")
	}
	after := screen(m)
	if before == after || !strings.Contains(after, "3.2s") {
		t.Errorf("the tick changed nothing or not the time:\n%s\n---\n%s", before, after)
	}
	if a, b := strings.Split(before, "\n"), strings.Split(after, "\n"); len(a) == len(b) {
		for i := range a {
			if a[i] != b[i] && !strings.Contains(b[i], "scanning") {
				t.Errorf("a tick changed line %d, not the scan line: %q → %q", i, a[i], b[i])
			}
		}
	}
	m.Update(scanBatchMsg{gen: 1, done: true, stats: vcsdetect.Stats{Dirs: 2000, Repos: 2}})
	next := m.walk.spinner.Tick().(spinner.TickMsg)
	if cmd := m.update(next); cmd != nil {
		t.Error("the spinner keeps ticking after the scan ended")
	}
	if s := screen(m); strings.Contains(s, "scanning") {
		t.Errorf("the scan line stays after the scan:\n%s", s)
	}
}

// TestEmptyState: a scan that finds nothing says what it scanned and
// what to try.
func TestEmptyState(t *testing.T) {
	m := New(Config{Dir: "/work/demo", ScanOptions: vcsdetect.Options{MaxDepth: 3}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, done: true, stats: vcsdetect.Stats{Dirs: 40, Skipped: 2}})
	s := screen(m)
	for _, want := range []string{"No repositories found in /work/demo.", "Walked 40 folders to depth 3; 2 skipped",
		"rootpick --max-depth 6 /work/demo", "rootpick /work\n", "rootpick --all /work/demo"} {
		if !strings.Contains(s, want) {
			t.Errorf("empty state lacks %q:\n%s", want, s)
		}
	}
	m = New(Config{Dir: "/", ScanOptions: vcsdetect.Options{All: true}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, done: true, stats: vcsdetect.Stats{Dirs: 1}})
	s = screen(m)
	if !strings.Contains(s, "at every depth") || strings.Contains(s, "--max-depth") || strings.Contains(s, "--all") || strings.Contains(s, "Try") {
		t.Errorf("with no depth limit, --all and no parent there is nothing to try:\n%s", s)
	}
}

// TestHelpExplainsEveryState: ? names every server state word, every row
// state, the filter's and the dialog's keys; at 40 columns no line of it
// is cut, and it scrolls.
func TestHelpExplainsEveryState(t *testing.T) {
	m := fixture(t, demoRepos()...)
	text := ansi.Strip(m.helpText(40))
	var words []string
	for _, v := range fleet.StateWords("") {
		words = append(words, v[0])
	}
	words = append(words, "shared", "withdrawn", "add", "remove", "covered", "remembered", "[x]", "protocol")
	for _, b := range m.dkeys.FullHelp() {
		for _, k := range b {
			words = append(words, k.Help().Key+" ")
		}
	}
	words = append(words, backKeys.Help().Key+" ", "between terms", "ctrl+u")
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("help lacks %q", w)
		}
	}
	for i, l := range strings.Split(text, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("help line %d is %d columns at 40: %q", i, ansi.StringWidth(l), l)
		}
	}

	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	send(m, "?")
	first := screen(m)
	if !strings.Contains(first, "other keys close") {
		t.Fatalf("a help taller than the screen must say it scrolls:\n%s", first)
	}
	send(m, "G")
	if s := screen(m); !strings.Contains(s, "close it") || !strings.Contains(s, "100%") {
		t.Errorf("G shows the end of the help:\n%s", s)
	}
	send(m, "g", "down")
	if s := screen(m); s == first || m.mode() != modeHelp {
		t.Errorf("down scrolls the help:\n%s", s)
	}
	send(m, "x")
	if m.mode() == modeHelp {
		t.Error("another key closes the help")
	}
	send(m, "?")
	if send(m, "q"); m.mode() != modeList {
		t.Error("q in the help goes back to the list")
	}
}

// TestLooksGoldens: scanning, the empty state and the help at three
// sizes, without colour.
func TestLooksGoldens(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, size := range [][2]int{{120, 40}, {80, 24}, {40, 10}} {
		w, h := size[0], size[1]
		suffix := "_" + itoa(w) + "x" + itoa(h)
		golden(t, "scanning"+suffix, screen(scanningModel(t, w, h)))

		m := New(Config{Dir: "/work/demo", ScanOptions: vcsdetect.Options{MaxDepth: 3}})
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		m.walk.gen = 1
		m.Update(scanBatchMsg{gen: 1, done: true, stats: vcsdetect.Stats{Dirs: 40, Skipped: 2, Warnings: 1}, elapsed: time.Second})
		golden(t, "empty"+suffix, screen(m))

		m = fixture(t, demoRepos()...)
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		send(m, "?")
		golden(t, "help"+suffix, screen(m))
	}
}

// TestColourGoldens: the list with a checked, a shared and a covered row
// in each theme, kept with its escape sequences.
func TestColourGoldens(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	t.Setenv("NO_COLOR", "")
	for _, theme := range []struct {
		name string
		bg   string
	}{{"dark", "#1e1e1e"}, {"light", "#fafafa"}} {
		m := fixture(t, demoRepos()...)
		m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color(theme.bg)})
		m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api")})
		m.onHubEvent(connectedEvent("demo", "rootpick-demo"))
		m.onHubEvent(fetchedEvent("demo", "file:///work/demo/api"))
		send(m, "space", "down", "down", "space", "down")
		golden(t, "list_colour_"+theme.name+"_80x24", m.View().Content)
	}
}

// TestConfiguredTheme: the config file's "light" or "dark" sets the
// palette from the first frame and a background answer does not change
// it; "auto" follows the answer.
func TestConfiguredTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	darkDim, lightDim := "38;2;168;168;168", "38;2;98;98;98"
	for _, tc := range []struct {
		theme, background string
		want, not         string
	}{
		{"light", "#000000", lightDim, darkDim},
		{"dark", "#ffffff", darkDim, lightDim},
		{"auto", "#ffffff", lightDim, darkDim},
		{"", "#ffffff", lightDim, darkDim},
	} {
		m := New(Config{Dir: "/work/demo", Theme: tc.theme, Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
			return vcsdetect.Stats{}, nil
		}, Describe: func(context.Context, vcsdetect.Repo) vcsdetect.Details { return vcsdetect.Details{} }})
		m.walk.gen = 1
		m.Update(scanBatchMsg{gen: 1, repos: demoRepos(), done: true})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color(tc.background)})
		if v := m.View().Content; !strings.Contains(v, tc.want) || strings.Contains(v, tc.not) {
			t.Errorf("theme %q on %s: want %s, not %s", tc.theme, tc.background, tc.want, tc.not)
		}
	}
}

// outlierModel is a workspace like the one issue 17 was found on: one very
// long name, a risky row (.env at its top), a symlinked one, shared,
// checked and covered rows.
func outlierModel(t *testing.T, w, h int) *Model {
	t.Helper()
	repos := []vcsdetect.Repo{
		repo("archive/2021/old-payments", "main"),
		repo("infra/terraform", "release/2026-q4-hardening"),
		repo("libs/a-library-with-an-exceptionally-long-name-that-nobody-would-type-twice-v2-final", "main"),
		repo("services/payouts", "main"),
		repo("services/payouts/plugins/fx", "main"),
		repo("services/secrets-api", "feature/rotate-keys"),
		repo("tools/linked-repo", "main"),
		repo("web/web-frontend", "main"),
	}
	m := fixture(t, repos...)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{
		{Repo: repos[5], Value: repoFacts{warnings: []string{"holds .env at its top"}, risks: []string{consent.WarnSecrets}}},
		{Repo: repos[6], Value: repoFacts{warnings: []string{"is a symbolic link"}, risks: []string{consent.WarnSymlink}}},
	}})
	m.picker.SetChecked([]string{repos[1].Path, repos[3].Path, repos[5].Path})
	m.review.sh.ServedNow([]consent.Root{mkRoot(repos[3].Path)})
	return m
}

// TestRowsNeverLoseTheirState: at every size, with one very long name
// among the rows, each checked row shows + add or ✓ (its state), the
// nested row ⊂, and each risky row ⚠ with its word (issue 17: the state
// column vanished at 120 columns beside 20 blank ones); a branch is not
// cut while the row has room for it.
func TestRowsNeverLoseTheirState(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {120, 35}} {
		w, h := size[0], size[1]
		m := outlierModel(t, w, h)
		out := screen(m)
		rows := map[string]string{}
		for _, l := range strings.Split(out, "\n") {
			for _, name := range []string{"infra/terraform", "services/payouts ", "plugins/fx", "secrets-api", "linked-repo"} {
				if strings.Contains(l, name) {
					rows[name] = l
				}
			}
		}
		for name, want := range map[string]string{
			"infra/terraform": "+", "services/payouts ": "✓", "plugins/fx": "⊂",
			"secrets-api": "⚠ secrets", "linked-repo": "⚠ symlink",
		} {
			if !strings.Contains(rows[name], want) {
				t.Errorf("%d×%d: row %s lacks %q: %q\n%s", w, h, name, want, rows[name], out)
			}
		}
		if !strings.Contains(rows["secrets-api"], "+") {
			t.Errorf("%d×%d: the checked risky row lacks +: %q", w, h, rows["secrets-api"])
		}
		if w == 80 && !strings.Contains(rows["infra/terraform"], "release/2026-q4-hardening") {
			t.Errorf("%d×%d: the branch is cut with room to spare: %q", w, h, rows["infra/terraform"])
		}
		golden(t, "outlier_"+itoa(w)+"x"+itoa(h), out)
	}
}

// TestFitColumnsGivesWayInOrder: nothing is cut while all fits; the short
// state is never given up, whatever the name needs.
func TestFitColumnsGivesWayInOrder(t *testing.T) {
	if nw, bw, kw, sw := fitColumns(100, 30, 30, 25, 8, 20, 10, 3); nw != 30 || bw != 25 || kw != 8 || sw != 20 {
		t.Errorf("all fits: %d %d %d %d, want every column whole", nw, bw, kw, sw)
	}
	for _, avail := range []int{10, 20, 40, 60} {
		_, _, _, sw := fitColumns(avail, 200, 30, 25, 8, 30, 15, 9)
		if sw < 9 {
			t.Errorf("avail %d: state column %d, below its short form 9", avail, sw)
		}
	}
}

// TestHeaderCountsFirst: the counts come first and whole; a long folder
// path takes what is left, cut in its middle; plurals are right.
func TestHeaderCountsFirst(t *testing.T) {
	m := fixture(t, repo("only", "main"))
	m.cfg.Dir = "/very/long/path/to/a/folder/that/does/not/fit/beside/the/counts/work"
	m.setSize(60, 10)
	h := ansi.Strip(m.headerView())
	if !strings.HasPrefix(h, "rootpick  1 repo · 0 checked  /very/") || !strings.HasSuffix(h, "counts/work") || !strings.Contains(h, "…") {
		t.Errorf("header at 60 columns: %q; want the counts whole, then the folder cut in its middle", h)
	}
	m.walk.stats.Skipped = 1
	if h := ansi.Strip(m.headerView()); !strings.Contains(h, "1 folder skipped") {
		t.Errorf("header %q: want '1 folder skipped'", h)
	}
}
