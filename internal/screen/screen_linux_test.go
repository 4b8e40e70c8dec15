package screen

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"
)

// openPty returns a pseudo-terminal's two ends: the program's (tty) and
// the terminal's (master), tty sized cols×rows.
func openPty(t *testing.T, cols, rows int) (tty, master *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); master.Close() })
	return tty, master
}

// terminal collects what the program writes to its tty.
type terminal struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func reading(master *os.File) *terminal {
	t := &terminal{}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			t.mu.Lock()
			t.out.Write(buf[:n])
			t.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return t
}

func (t *terminal) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

// waitFor waits until the terminal has been sent want.
func (t *terminal) waitFor(tb testing.TB, want string) {
	tb.Helper()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(t.String(), want); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			got := t.String()
			if len(got) > 400 {
				got = "…" + got[len(got)-400:]
			}
			tb.Fatalf("the terminal never got %q; it got %q", want, got)
		}
	}
}

func openScreen(t *testing.T, cols, rows int, env ...string) (*Screen, *terminal, *os.File) {
	t.Helper()
	tty, master := openPty(t, cols, rows)
	term := reading(master)
	s, err := Open(tty, tty, append([]string{"TERM=xterm-256color"}, env...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, term, tty
}

// A frame is written when it is handed over, not at a tick: Bubble Tea's
// 120 Hz ticker made each key wait 4.2 ms on average (8.3 at most) for it.
func TestDrawWritesAtOnce(t *testing.T) {
	s, _, _ := openScreen(t, 40, 10)
	written := make(chan struct{}, 1)
	s.frames = func(string) { written <- struct{}{} }
	var took []time.Duration
	for i := range 200 {
		start := time.Now()
		s.Draw(view(fmt.Sprintf("frame %d", i)))
		select {
		case <-written:
		case <-time.After(5 * time.Second):
			t.Fatalf("frame %d was never written", i)
		}
		took = append(took, time.Since(start))
		time.Sleep(time.Duration(i%9) * time.Millisecond) // off any tick's phase
	}
	slices.Sort(took)
	if p50 := took[len(took)/2]; p50 > 2*time.Millisecond {
		t.Errorf("a frame took %v (median of %d) from Draw to the terminal; a 120 Hz ticker alone waits 4.2 ms", p50, len(took))
	}
}

// Views handed over while a frame is written fold into the next one, and
// the last view is always drawn.
func TestDrawFoldsABurstAndDrawsTheLast(t *testing.T) {
	s, _, _ := openScreen(t, 40, 10)
	const n = 2000
	last := fmt.Sprintf("row %04d", n-1)
	var frames int
	drewLast := make(chan struct{})
	s.frames = func(content string) {
		frames++
		if content == last {
			close(drewLast)
		}
	}
	for i := range n {
		s.Draw(view(fmt.Sprintf("row %04d", i)))
	}
	select {
	case <-drewLast:
	case <-time.After(5 * time.Second):
		t.Fatalf("the last view was not drawn (%d frames)", frames)
	}
	if frames >= n {
		t.Errorf("%d frames for %d views handed over at once: none were folded", frames, n)
	}
}

// Open takes the terminal as Bubble Tea's renderer would, and Close puts
// it back: raw mode off, the main screen, the cursor, no mouse reports,
// no keyboard protocol, no title.
func TestOpenAndCloseTheTerminal(t *testing.T) {
	tty, master := openPty(t, 40, 10)
	term0 := reading(master)
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(tty, tty, []string{"TERM=xterm-256color"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if raw.Lflag&unix.ICANON != 0 || raw.Lflag&unix.ECHO != 0 {
		t.Error("the input is not in raw mode after Open")
	}
	for _, seq := range []string{ansi.SetModeAltScreenSaveCursor, ansi.ResetModeTextCursorEnable,
		ansi.SetModeBracketedPaste, ansi.PushKittyKeyboard(1), ansi.RequestBackgroundColor} {
		term0.waitFor(t, seq)
	}
	s.Draw(view("hello"))
	term0.waitFor(t, "hello")
	for _, seq := range []string{ansi.SetModeMouseButtonEvent, ansi.SetWindowTitle("rootpick")} {
		term0.waitFor(t, seq)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("Close left the terminal's modes changed: lflag %#x, want %#x", after.Lflag, before.Lflag)
	}
	for _, seq := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.SetModeTextCursorEnable,
		ansi.ResetModeMouseButtonEvent, ansi.ResetModeBracketedPaste, ansi.PopKittyKeyboard(1), ansi.SetWindowTitle("")} {
		term0.waitFor(t, seq)
	}
	// Nothing is drawn after Close, and Close again is harmless.
	got := len(term0.String())
	s.Draw(view("late"))
	_, _ = queries{s}.Write([]byte("query"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if rest := term0.String()[got:]; rest != "" {
		t.Errorf("written after Close: %q", rest)
	}
}

// A new size draws the whole frame again at that size.
func TestResizeRedraws(t *testing.T) {
	s, term, _ := openScreen(t, 40, 10)
	s.Draw(view("same"))
	term.waitFor(t, "same")
	mark := len(term.String())
	s.observe(tea.WindowSizeMsg{Width: 30, Height: 8})
	s.Draw(view("same"))
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(term.String()[mark:], "same"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the frame was not drawn again after a resize: %q", term.String()[mark:])
		}
	}
	// An unchanged view at an unchanged size writes nothing.
	s.Draw(view("same"))
	time.Sleep(50 * time.Millisecond)
	if again := strings.Count(term.String()[mark:], "same"); again != 1 {
		t.Errorf("the unchanged frame was written %d times after the resize, want 1", again)
	}
}

// A terminal that says it supports synchronized output gets each frame
// inside one, so it never shows half a frame.
func TestSynchronizedFrames(t *testing.T) {
	s, term, _ := openScreen(t, 40, 10)
	s.observe(tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	s.Draw(view("synced"))
	term.waitFor(t, "synced")
	out := term.String()
	if i, j := strings.LastIndex(out, ansi.SetModeSynchronizedOutput), strings.Index(out, "synced"); i < 0 || i > j ||
		!strings.Contains(out[j:], ansi.ResetModeSynchronizedOutput) {
		t.Errorf("the frame is not inside synchronized output: %q", out)
	}
}

// A panic in the model's View puts the terminal back before it goes on,
// so that Bubble Tea's report of it lands on the main screen.
func TestPanicInViewClosesTheScreen(t *testing.T) {
	s, term, tty := openScreen(t, 40, 10)
	m := s.Model(panicky{})
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the model's panic", r)
			}
		}()
		m.View()
	}()
	term.waitFor(t, ansi.ResetModeAltScreenSaveCursor)
	if st, _ := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); st.Lflag&unix.ICANON == 0 {
		t.Error("the input is still raw after the panic")
	}
}

// A panic in the model's Update puts the terminal back too: a key that
// crashes the picker must not leave the shell raw, on the alternate screen.
func TestPanicInUpdateClosesTheScreen(t *testing.T) {
	s, term, tty := openScreen(t, 40, 10)
	m := s.Model(panicsInUpdate{})
	func() {
		defer func() {
			if r := recover(); r != "bang" {
				t.Errorf("recovered %v, want the model's panic", r)
			}
		}()
		m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	}()
	term.waitFor(t, ansi.ResetModeAltScreenSaveCursor)
	if st, _ := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); st.Lflag&unix.ICANON == 0 || st.Lflag&unix.ECHO == 0 {
		t.Error("the input is still raw after the panic")
	}
}

type panicsInUpdate struct{}

func (panicsInUpdate) Init() tea.Cmd                       { return nil }
func (panicsInUpdate) Update(tea.Msg) (tea.Model, tea.Cmd) { panic("bang") }
func (panicsInUpdate) View() tea.View                      { return view("calm") }

type panicky struct{}

func (panicky) Init() tea.Cmd                       { return nil }
func (panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { return panicky{}, nil }
func (panicky) View() tea.View                      { panic("boom") }

// Not a terminal: Open refuses, and the picker draws with Bubble Tea.
func TestOpenRefusesAFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Open(f, f, nil); err != ErrNoTerminal {
		t.Errorf("Open on a file: %v, want ErrNoTerminal", err)
	}
	if term.IsTerminal(f.Fd()) {
		t.Fatal("a temporary file is a terminal?")
	}
}

// calm is a model that draws one view and then waits.
type calm struct{}

func (calm) Init() tea.Cmd                       { return nil }
func (calm) Update(tea.Msg) (tea.Model, tea.Cmd) { return calm{}, nil }
func (calm) View() tea.View                      { return view("calm") }

// wakeups counts the voluntary context switches of this process's
// threads so far: each time one slept and was woken.
func wakeups(t *testing.T) int {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip(err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err != nil {
			continue // the thread ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
				k, _ := strconv.Atoi(strings.TrimSpace(v))
				n += k
			}
		}
	}
	return n
}

// A program at rest on the screen is quiet: Bubble Tea's own ticker,
// which only sends the queries its program asks for, wakes once a
// second, not ten times (a picker left open all day woke 110 times a
// second, fzf 62).
func TestAProgramAtRestIsQuiet(t *testing.T) {
	s, term, _ := openScreen(t, 40, 10)
	p := tea.NewProgram(s.Model(calm{}), s.Options()...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = s.Run(p)
	}()
	term.waitFor(t, "calm")
	time.Sleep(300 * time.Millisecond)
	// The quietest of three seconds: a busy machine wakes a process more
	// in some (up to 51 times where 23 was usual; at ten ticks a second,
	// 75 to 100 in every one).
	n := -1
	for range 3 {
		before := wakeups(t)
		time.Sleep(time.Second)
		if k := wakeups(t) - before; n < 0 || k < n {
			n = k
		}
	}
	p.Quit()
	<-done
	t.Logf("%d wake-ups in the quietest second at rest", n)
	if n > 30 {
		t.Errorf("the program at rest woke %d times in its quietest second", n)
	}
}
