package main

import (
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
// terminal emulator. One goroutine reads the pty, feeds the emulator and
// records, at the time each read returned, which watches the new screen
// satisfied; the terminal's answers to the program's queries (cursor
// position, device attributes, …) go back to the program as a real
// terminal's would.
type term struct {
	cmd   *exec.Cmd
	ptmx  *os.File
	start time.Time

	mu      sync.Mutex
	emu     *vt.Emulator
	screen  string    // the screen as compared (screenKey)
	text    string    // the screen as plain text, kept only while textOn
	textOn  bool      // watches need the plain text
	lastOut time.Time // when the last output arrived
	watches []*watch
	done    error // the read loop ended (the program exited)
	notify  chan struct{}
}

// watch is a condition on the screen; at is the time of the read after
// which the screen first met it (zero until then). A held watch is checked
// again on every change and cleared when the screen no longer meets it, so
// at is the start of the current stretch: a frame arrives in several reads,
// and a condition can hold on a partly drawn frame.
type watch struct {
	cond func(screen, text string) bool
	held bool
	at   time.Time
}

func startTerm(path string, args, env []string, stdin *os.File, cols, rows int) (*term, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = env
	t := &term{cmd: cmd, emu: vt.NewEmulator(cols, rows), notify: make(chan struct{}, 1)}
	t.screen = screenKey(t.emu)
	var err error
	t.start = time.Now()
	t.ptmx, err = startPty(cmd, stdin, cols, rows)
	if err != nil {
		return nil, err
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

func (t *term) readLoop() {
	buf := make([]byte, 256<<10)
	for {
		n, err := t.ptmx.Read(buf)
		at := time.Now()
		if n > 0 {
			t.mu.Lock()
			_, _ = t.emu.Write(buf[:n])
			scr := screenKey(t.emu)
			changed := scr != t.screen
			t.screen = scr
			if changed && t.textOn {
				t.text = t.emu.String()
			}
			t.lastOut = at
			if changed {
				for _, w := range t.watches {
					switch {
					case w.at.IsZero() && w.cond(t.screen, t.text):
						w.at = at
					case w.held && !w.at.IsZero() && !w.cond(t.screen, t.text):
						w.at = time.Time{}
					}
				}
			}
			t.mu.Unlock()
			t.poke()
		}
		if err != nil {
			t.mu.Lock()
			t.done = err
			t.mu.Unlock()
			t.poke()
			return
		}
	}
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

func (t *term) addWatch(w *watch) *watch {
	t.mu.Lock()
	if w.cond(t.screen, t.text) {
		w.at = time.Now()
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

// hit reads when w was met (zero if not yet).
func (t *term) hit(w *watch) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return w.at
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

// quiet waits until no output has arrived for q, for at most limit; it
// reports whether the terminal fell quiet.
func (t *term) quiet(q, limit time.Duration) bool {
	end := time.Now().Add(limit)
	for {
		t.mu.Lock()
		last, done := t.lastOut, t.done
		t.mu.Unlock()
		now := time.Now()
		if done != nil || now.Sub(last) >= q {
			return true
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

// press writes key and returns when it was written.
func (t *term) press(key string) (time.Time, error) {
	at := time.Now()
	_, err := t.ptmx.Write([]byte(key))
	return at, err
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
