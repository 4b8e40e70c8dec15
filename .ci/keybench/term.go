package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// term runs a program in a pseudo-terminal and keeps its screen in a
// terminal emulator. One goroutine only reads the pty: it stamps each chunk
// the moment its read returns (time.Now() right after Read) and queues it.
// Another feeds the chunks to the emulator in order and, after each,
// decides whether the screen changed and which watches the new screen
// satisfies. The terminal's answers to the program's queries (cursor
// position, device attributes, …) go back to the program as a real
// terminal's would.
//
// Each chunk has two times. read is its read stamp. inline is the stamp
// the loop before the second yardstick gave it, which read a chunk,
// stamped it and emulated it before reading the next, so that emulating
// one chunk delayed the read (and stamp) of the next: a model of that loop
// (inlineModel) driven by the read stamps and the measured time each
// chunk's emulation took. With -emulate inline the reader emulates each
// chunk itself, as that loop did, and the two times are the same.
type term struct {
	cmd    *exec.Cmd
	ptmx   *os.File
	start  time.Time
	inline bool // emulate on the reading goroutine (the old loop)

	queue chan chunk

	mu      sync.Mutex
	emu     *vt.Emulator
	model   inlineModel
	screen  string    // the screen as compared (screenKey)
	text    string    // the screen as plain text, kept only while textOn
	textOn  bool      // watches need the plain text
	lastOut time.Time // read stamp of the last chunk emulated
	pending int       // chunks read and not yet emulated
	watches []*watch
	done    error // the read loop ended (the program exited) and every chunk was emulated
	notify  chan struct{}
}

// chunk is what one read of the pty returned, and when.
type chunk struct {
	data []byte
	read time.Time
	err  error
}

// inlineModel gives each chunk the stamp the inline loop would have: a
// read returns everything that arrived while the previous chunks were
// emulated, stamped when the reader came back for it.
type inlineModel struct {
	stamp time.Time // the stamp of the current read
	end   time.Time // when the emulation of that read's chunks ends
}

// begin returns the inline stamp of a chunk whose read stamp is read.
func (m *inlineModel) begin(read time.Time) time.Time {
	switch {
	case !read.Before(m.end): // the reader was waiting: read at once
		m.stamp, m.end = read, read
	case !read.Before(m.stamp): // arrived while the reader was emulating
		m.stamp = m.end
	} // else it was already there when the current read returned: joins it
	return m.stamp
}

// finish adds the time the chunk's emulation took.
func (m *inlineModel) finish(d time.Duration) { m.end = m.end.Add(d) }

// watch is a condition on the screen; at is the time of the read after
// which the screen first met it (zero until then), stamped as the inline
// loop did (see term), and read the read stamp of that chunk. A held watch
// is checked again on every change and cleared when the screen no longer
// meets it, so at is the start of the current stretch: a frame arrives in
// several reads, and a condition can hold on a partly drawn frame.
//
// A visible watch (cond nil) is met by the first chunk read at or after
// from whose emulation changed the screen: a key's first visible change.
type watch struct {
	cond     func(screen, text string) bool
	held     bool
	from     time.Time
	at, read time.Time
}

func startTerm(path string, args, env []string, stdin *os.File, cols, rows int, inline bool) (*term, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = env
	t := &term{cmd: cmd, emu: vt.NewEmulator(cols, rows), notify: make(chan struct{}, 1), inline: inline}
	t.screen = screenKey(t.emu)
	var err error
	t.start = time.Now()
	t.ptmx, err = startPty(cmd, stdin, cols, rows)
	if err != nil {
		return nil, err
	}
	if !inline {
		// Room for minutes of output: the reader never waits for the
		// emulator.
		t.queue = make(chan chunk, 1<<16)
		go t.emulateLoop()
	}
	go t.readLoop()
	go func() { _, _ = io.Copy(t.ptmx, t.emu) }() // the terminal's answers
	return t, nil
}

// startPty starts cmd with a pty of cols×rows as its stdout, stderr and
// controlling terminal, and as its stdin unless stdin is given (fzf reads
// its list from stdin and the keys from /dev/tty).
func startPty(cmd *exec.Cmd, stdin *os.File, cols, rows int) (*os.File, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		ptmx.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if stdin != nil {
		cmd.Stdin = stdin
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	if err := cmd.Start(); err != nil {
		ptmx.Close()
		return nil, err
	}
	return ptmx, nil
}

// readLoop reads the pty and stamps each chunk as its read returns; it
// queues the chunk for emulateLoop, or with -emulate inline emulates it
// before reading the next.
func (t *term) readLoop() {
	buf := make([]byte, 256<<10)
	for {
		n, err := t.ptmx.Read(buf)
		c := chunk{read: time.Now(), err: err}
		if t.inline {
			c.data = buf[:n]
			t.emulate(c)
		} else {
			c.data = bytes.Clone(buf[:n])
			t.mu.Lock()
			t.pending++
			t.mu.Unlock()
			t.queue <- c
		}
		if err != nil {
			if !t.inline {
				close(t.queue)
			}
			return
		}
	}
}

func (t *term) emulateLoop() {
	for c := range t.queue {
		t.emulate(c)
	}
}

// emulate feeds one chunk to the emulator and checks the watches against
// the screen it leaves.
func (t *term) emulate(c chunk) {
	t0 := time.Now()
	t.mu.Lock()
	if !t.inline {
		t.pending--
	}
	if len(c.data) > 0 {
		at := t.model.begin(c.read)
		if t.inline {
			at = c.read
		}
		_, _ = t.emu.Write(c.data)
		scr := screenKey(t.emu)
		changed := scr != t.screen
		t.screen = scr
		if changed && t.textOn {
			t.text = t.emu.String()
		}
		t.lastOut = c.read
		if changed {
			for _, w := range t.watches {
				switch {
				case w.cond == nil:
					if w.read.IsZero() && !c.read.Before(w.from) {
						w.at, w.read = at, c.read
					}
				case w.at.IsZero() && w.cond(t.screen, t.text):
					w.at, w.read = at, c.read
				case w.held && !w.at.IsZero() && !w.cond(t.screen, t.text):
					w.at, w.read = time.Time{}, time.Time{}
				}
			}
		}
		t.model.finish(time.Since(t0))
	}
	if c.err != nil {
		t.done = c.err
	}
	t.mu.Unlock()
	t.poke()
}

// screenKey is the screen as compared for "changed": each cell's text and
// style, except that a blank drawn in reverse video counts as a plain
// blank, because the text cursor of rootpick's filter line is one, and it
// blinks (about every 0.5 s after the last key, so rarely within a key's
// wait; the references of the filter compare text alone).
func screenKey(e *vt.Emulator) string {
	var b strings.Builder
	var last uv.Style
	w, h := e.Width(), e.Height()
	for y := range h {
		for x := range w {
			c := e.CellAt(x, y)
			if c == nil {
				continue // the second column of a wide character
			}
			content, st := c.Content, c.Style
			if (content == "" || content == " ") && st.Attrs&uv.AttrReverse != 0 {
				content, st = " ", uv.Style{}
			}
			if !st.Equal(&last) {
				b.WriteString(st.String())
				last = st
			}
			if content == "" {
				content = " "
			}
			b.WriteString(content)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (t *term) poke() {
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

// add starts watching cond; it is checked at once against the screen as it
// is (with the current time if it holds).
func (t *term) add(cond func(screen, text string) bool) *watch {
	return t.addWatch(&watch{cond: cond})
}

// hold is add for a condition that must go on holding (see watch).
func (t *term) hold(cond func(screen, text string) bool) *watch {
	return t.addWatch(&watch{cond: cond, held: true})
}

// visible watches for the first chunk read at or after from whose
// emulation changes the screen.
func (t *term) visible(from time.Time) *watch {
	return t.addWatch(&watch{from: from})
}

func (t *term) addWatch(w *watch) *watch {
	t.mu.Lock()
	if w.cond != nil && w.cond(t.screen, t.text) {
		w.at = time.Now()
		w.read = w.at
	}
	t.watches = append(t.watches, w)
	t.mu.Unlock()
	return w
}

func (t *term) remove(ws ...*watch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	keep := t.watches[:0]
	for _, w := range t.watches {
		drop := false
		for _, x := range ws {
			drop = drop || w == x
		}
		if !drop {
			keep = append(keep, w)
		}
	}
	t.watches = keep
}

func (t *term) setText(on bool) {
	t.mu.Lock()
	t.textOn = on
	if on {
		t.text = t.emu.String()
	}
	t.mu.Unlock()
}

// hit reads when w was met (zero if not yet), stamped as the inline loop
// stamped.
func (t *term) hit(w *watch) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return w.at
}

// hitRead reads the read stamp of the chunk that met w (zero if not yet).
func (t *term) hitRead(w *watch) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return w.read
}

var errExited = errors.New("the program exited")

// waitFor waits until every watch is met or the timeout passes; it reports
// whether they all were.
func (t *term) waitFor(timeout time.Duration, ws ...*watch) (bool, error) {
	deadline := time.Now().Add(timeout)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		t.mu.Lock()
		all := true
		for _, w := range ws {
			all = all && !w.at.IsZero()
		}
		done := t.done
		t.mu.Unlock()
		if all {
			return true, nil
		}
		if done != nil {
			return false, errExited
		}
		if !time.Now().Before(deadline) {
			return false, nil
		}
		select {
		case <-t.notify:
		case <-timer.C:
		}
	}
}

// quiet waits until no output has arrived for q and all of it has been
// emulated, for at most limit; it reports whether the terminal fell quiet.
func (t *term) quiet(q, limit time.Duration) bool {
	end := time.Now().Add(limit)
	for {
		t.mu.Lock()
		last, done, pending := t.lastOut, t.done, t.pending
		t.mu.Unlock()
		now := time.Now()
		if done != nil || (pending == 0 && now.Sub(last) >= q) {
			return true
		}
		if pending > 0 {
			last = now.Add(-q + time.Millisecond) // check again in 1 ms
		}
		if now.After(end) {
			return false
		}
		time.Sleep(last.Add(q).Sub(now))
	}
}

func (t *term) snapshot() (screen, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.screen, t.emu.String()
}

// press writes key and returns when it was written, and a visible watch
// from that moment (the key's first visible change).
func (t *term) press(key string) (time.Time, *watch, error) {
	at := time.Now()
	w := t.visible(at)
	_, err := t.ptmx.Write([]byte(key))
	return at, w, err
}

// stop asks the program to quit with quitKey, then kills its process group
// if it has not exited within a few seconds.
func (t *term) stop(quitKey string) {
	_, _ = t.ptmx.Write([]byte(quitKey))
	exited := make(chan struct{})
	go func() { _ = t.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	t.ptmx.Close()
}
