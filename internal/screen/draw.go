package screen

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/rootpick/rootpick/internal/panics"
)

// Screen is the terminal the picker draws on, from [Open] to
// [Screen.Close]. [Screen.Draw] may be called from any goroutine; the
// frames are written by the Screen's own.
type Screen struct {
	in, out *os.File
	env     []string
	raw     *term.State  // in's state before Open, put back by Close
	frames  func(string) // called with each frame's content once it is written (tests)

	// wmu serialises what is written to out: the frames, the queries
	// Bubble Tea writes, and the restoring sequences.
	wmu    sync.Mutex
	closed bool // under wmu: nothing more is written

	// mu guards what Draw and the terminal's messages hand to the drawing
	// goroutine.
	mu            sync.Mutex
	view          tea.View
	pending       bool
	width, height int
	profile       colorprofile.Profile
	grapheme      bool // the terminal measures graphemes (mode 2027)
	syncd         bool // the terminal supports synchronized output (mode 2026)

	wake      chan struct{} // a view is pending (buffered, one)
	stop      chan struct{} // Close: the drawing goroutine ends
	done      chan struct{} // the drawing goroutine has ended
	closeOnce sync.Once
	closeErr  error

	// The drawing goroutine's own.
	scr            *uv.TerminalRenderer
	buf            bytes.Buffer // what scr writes for one frame
	canvas                      // the cells of the frame
	direct                      // the lines written without the cells
	last           *tea.View    // the last view drawn
	drawnW, drawnH int
	drawnGrapheme  bool
}

// Options are the tea.Program options that run a program on s: no
// renderer of its own (s draws), keys read from s's input, the queries
// Bubble Tea writes sent through s, and s's size and colours. A program
// run with them must have its model wrapped by [Screen.Model], and run by
// [Screen.Run].
func (s *Screen) Options() []tea.ProgramOption {
	s.mu.Lock()
	w, h, p := s.width, s.height, s.profile
	s.mu.Unlock()
	return []tea.ProgramOption{
		tea.WithoutRenderer(),
		tea.WithInput(s.in),
		tea.WithOutput(queries{s}),
		tea.WithWindowSize(w, h),
		tea.WithColorProfile(p),
		tea.WithEnvironment(s.env),
		// Bubble Tea's ticker now only sends its queries, and Open has
		// asked for the background colour already: it need not wake often,
		// and its slowest is once a second (TestAProgramAtRestIsQuiet).
		tea.WithFPS(queryRate),
	}
}

// queryRate is how often a second Bubble Tea sends the queries its
// program asks for: the model's own request for the background colour,
// which Open has made already, goes out within a second. At 10 a picker
// at rest woke its threads about 110 times a second (fzf 62); at 1, with
// the watchdog asleep between writes (mcpconn), 53.
const queryRate = 1

// queries is the output Bubble Tea writes to without a renderer: only the
// terminal queries it is asked for (the background colour). They are
// written between frames, never inside one.
type queries struct{ s *Screen }

func (q queries) Write(p []byte) (int, error) {
	q.s.wmu.Lock()
	defer q.s.wmu.Unlock()
	if q.s.closed {
		return len(p), nil
	}
	return q.s.out.Write(p)
}

// open sets s up on in and out, already checked to be terminals: raw
// input, the alternate screen, and the modes Bubble Tea's renderer would
// set for the picker's views.
func open(in, out *os.File, env []string) (*Screen, error) {
	raw, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, err
	}
	w, h := termSize(out)
	s := newScreen(in, out, env, w, h, colorprofile.Detect(out, env))
	s.raw = raw

	var b strings.Builder
	b.WriteString(ansi.ResetModifyOtherKeys)
	b.WriteString(ansi.SetModeAltScreenSaveCursor)
	b.WriteString(ansi.ResetModeTextCursorEnable)
	b.WriteString(ansi.SetModeBracketedPaste)
	// Keys as Bubble Tea's renderer asks for them: modifyOtherKeys and
	// the kitty protocol's disambiguation, and what the terminal grants.
	b.WriteString(ansi.SetModifyOtherKeys2)
	b.WriteString(ansi.PushKittyKeyboard(1))
	b.WriteString(ansi.RequestKittyKeyboard)
	// The picker asks for the background colour as it starts; asked here,
	// the answer comes before Bubble Tea's next tick would send it.
	b.WriteString(ansi.RequestBackgroundColor)
	if queryModes(uv.Environ(env)) {
		b.WriteString(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	}
	if _, err := io.WriteString(out, b.String()); err != nil {
		_ = term.Restore(in.Fd(), raw)
		return nil, err
	}
	go s.loop()
	return s, nil
}

// newScreen is a Screen drawing on out, w×h in profile p, before
// anything is written: open's, and the tests'.
func newScreen(in, out *os.File, env []string, w, h int, p colorprofile.Profile) *Screen {
	s := &Screen{
		in: in, out: out, env: env,
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	s.width, s.height, s.profile = w, h, p
	s.scr = uv.NewTerminalRenderer(&s.buf, env)
	s.scr.SetColorProfile(s.profile)
	s.scr.SetTabStops(-1)
	// No scroll optimisation: it hashes every line of every frame to find
	// lines that moved, and the picker's never do (the side pane beside
	// the list stays put while the rows scroll): 9 % of a held ↓'s CPU.
	s.scr.SetScrollOptim(false)
	s.scr.SetFullscreen(true)
	s.scr.SetRelativeCursor(false)
	s.cells = uv.NewScreenBuffer(s.width, s.height)
	s.scr.Resize(s.width, s.height)
	s.drawnW, s.drawnH = s.width, s.height
	s.scr.SaveCursor()
	s.scr.Erase()

	return s
}

// termSize is out's size, 80×24 where it cannot be read.
func termSize(out *os.File) (int, int) {
	w, h, err := term.GetSize(out.Fd())
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// queryModes says whether to ask the terminal for synchronized output and
// grapheme widths: as Bubble Tea decides it (Apple's Terminal and SSH
// sessions may leave the answer unread).
func queryModes(env uv.Environ) bool {
	termType := env.Getenv("TERM")
	termProg, okTermProg := env.LookupEnv("TERM_PROGRAM")
	_, okSSH := env.LookupEnv("SSH_TTY")
	_, okWT := env.LookupEnv("WT_SESSION")
	return (!okTermProg && !okSSH) || okWT ||
		(okTermProg && !strings.Contains(termProg, "Apple") && !okSSH) ||
		strings.Contains(termType, "ghostty") || strings.Contains(termType, "wezterm") ||
		strings.Contains(termType, "alacritty") || strings.Contains(termType, "kitty") ||
		strings.Contains(termType, "rio")
}

// observe takes what a message says about the terminal.
func (s *Screen) observe(msg tea.Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.width, s.height = msg.Width, msg.Height
	case tea.ColorProfileMsg:
		s.profile = msg.Profile
	case tea.ModeReportMsg:
		supported := msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet
		switch msg.Mode {
		case ansi.ModeSynchronizedOutput:
			s.syncd = s.syncd || msg.Value == ansi.ModeReset
		case ansi.ModeUnicodeCore:
			s.grapheme = s.grapheme || supported
		}
	}
}

// Draw hands v to the drawing goroutine and returns at once: it is drawn
// now if the goroutine is idle, else right after the frame it is writing
// (with any newer view in its place).
func (s *Screen) Draw(v tea.View) {
	s.mu.Lock()
	s.view, s.pending = v, true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Screen) loop() {
	defer panics.Guard()
	defer close(s.done) // before Guard's hook, which closes s and waits for this
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		s.mu.Lock()
		v, ok := s.view, s.pending
		s.pending = false
		w, h, p, g, syncd := s.width, s.height, s.profile, s.grapheme, s.syncd
		s.mu.Unlock()
		if ok {
			s.draw(v, w, h, p, g, syncd)
		}
	}
}

// draw writes v at w×h, as the difference from the last frame.
func (s *Screen) draw(v tea.View, w, h int, p colorprofile.Profile, grapheme, syncd bool) {
	changed := s.last == nil || v.Content != s.last.Content ||
		v.MouseMode != s.last.MouseMode || v.WindowTitle != s.last.WindowTitle
	repaint := s.last == nil
	if w != s.drawnW || h != s.drawnH {
		s.scr.Resize(w, h)
		s.scr.Erase()
		s.cells.Resize(w, h)
		s.cells.Touched = nil
		s.drawnW, s.drawnH = w, h
		changed, repaint = true, true
	}
	if grapheme != s.drawnGrapheme {
		s.drawnGrapheme = grapheme
		s.cells.Method = ansi.GraphemeWidth
		_, _ = s.scr.WriteString(ansi.SetModeUnicodeCore)
		s.scr.Erase()
		changed, repaint = true, true
	}
	if !changed {
		return
	}
	var lines []string
	direct := false
	if !repaint {
		lines, direct = s.directLines(v.Content, w, h)
		if !direct && s.stale {
			s.resync()
		}
	}
	s.scr.SetColorProfile(p)
	var lastMouse tea.MouseMode
	lastTitle := ""
	if s.last != nil {
		lastMouse, lastTitle = s.last.MouseMode, s.last.WindowTitle
	}
	if v.MouseMode != lastMouse {
		_, _ = s.scr.WriteString(mouseModes(lastMouse, false) + mouseModes(v.MouseMode, true))
	}
	if v.WindowTitle != lastTitle {
		_, _ = s.scr.WriteString(ansi.SetWindowTitle(v.WindowTitle))
	}
	if direct {
		_ = s.scr.Flush()
		s.drawDirect(lines, p)
	} else {
		s.paint(v.Content, repaint)
		s.scr.Render(s.cells.RenderBuffer)
		_ = s.scr.Flush()
		s.stale = false
	}
	s.last = &v
	if s.buf.Len() == 0 {
		return
	}
	frame := s.buf.Bytes()
	if syncd {
		frame = append(append([]byte(ansi.SetModeSynchronizedOutput), frame...), ansi.ResetModeSynchronizedOutput...)
	}
	s.wmu.Lock()
	if !s.closed {
		_, _ = s.out.Write(frame)
	}
	s.wmu.Unlock()
	s.buf.Reset()
	if s.frames != nil {
		s.frames(v.Content)
	}
}

// mouseModes is what turns mode m on (or off).
func mouseModes(m tea.MouseMode, on bool) string {
	switch {
	case m == tea.MouseModeCellMotion && on:
		return ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr
	case m == tea.MouseModeAllMotion && on:
		return ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr
	case m != tea.MouseModeNone && !on:
		return ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr
	}
	return ""
}

// Close puts the terminal back as Open found it: the drawing goroutine
// stops (waiting a second at most for the frame it writes), the modes are
// reset, the main screen and the cursor come back, and the input leaves
// raw mode. It may be called more than once, from any goroutine.
func (s *Screen) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		stopped := true
		select {
		case <-s.done:
		case <-time.After(time.Second):
			stopped = false // a write that hangs: reset all that it may have set
		}
		var b strings.Builder
		b.WriteString(ansi.ResetModifyOtherKeys)
		b.WriteString(ansi.PopKittyKeyboard(1))
		b.WriteString(mouseModes(tea.MouseModeAllMotion, false))
		if !stopped || s.last != nil && s.last.WindowTitle != "" {
			b.WriteString(ansi.SetWindowTitle(""))
		}
		b.WriteString(ansi.ResetModeBracketedPaste)
		if !stopped || s.drawnGrapheme {
			b.WriteString(ansi.ResetModeUnicodeCore)
		}
		b.WriteString(ansi.ResetModeSynchronizedOutput)
		b.WriteString(ansi.ResetModeAltScreenSaveCursor)
		b.WriteString(ansi.SetModeTextCursorEnable)
		s.wmu.Lock()
		_, err := io.WriteString(s.out, b.String())
		s.closed = true
		s.wmu.Unlock()
		if rerr := term.Restore(s.in.Fd(), s.raw); err == nil {
			err = rerr
		}
		s.closeErr = err
	})
	return s.closeErr
}

func isTerminal(f *os.File) bool { return f != nil && term.IsTerminal(f.Fd()) }
