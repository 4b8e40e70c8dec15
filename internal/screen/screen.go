// Package screen draws the picker's frames on the terminal the moment
// they are ready.
//
// Bubble Tea v2.1.1 writes a frame only on its ticker, at most 120 times a
// second, so every key waited 0–8.3 ms (4.2 on average) for the next tick
// before it showed, and the idle ticker cost about 16 ms of CPU a second
// (docs/performance.md). Its renderer cannot be swapped through its API.
// So the picker runs its tea.Program with tea.WithoutRenderer and a
// [Screen] owns the terminal instead: raw mode, the alternate screen, the
// input modes Bubble Tea's renderer would set, and one goroutine that
// draws the newest view as soon as there is one (the leading edge), with
// the views that come while it writes folded into the next frame. A
// frame of clean, one-column lines has its changed lines written whole
// (direct.go); any other is diffed and written by ultraviolet's
// TerminalRenderer, the same code Bubble Tea's renderer uses.
//
// When to delete it: when Bubble Tea draws a frame as soon as it is ready
// (charmbracelet/bubbletea pull requests 1776 and 1796, open as of
// December 2026), run the program with its renderer again and remove this
// package; TestDrawWritesAtOnce's bound (a median under 2 ms from Draw to
// the terminal) and .ci/bench-keys say whether that release is as fast.
//
// It has its own folder because it is the one place that writes the
// picker to the terminal: ui must do no I/O, and the root package keeps
// one file a command.
package screen

import (
	"errors"
	"os"

	tea "charm.land/bubbletea/v2"
)

// ErrNoTerminal is returned by [Open] where the screen cannot take the
// terminal (not one, or not a Unix): the caller falls back to Bubble
// Tea's own renderer.
var ErrNoTerminal = errors.New("screen: not a terminal")

// Terminal returns the files the picker reads keys from and draws on:
// standard input and output where they are terminals, else the
// controlling terminal (drawTTY forces it for the output, as fzf draws on
// /dev/tty when its output is piped). close closes what it opened.
func Terminal(drawTTY bool) (in, out *os.File, closeFn func(), err error) {
	var opened []*os.File
	closeFn = func() {
		for _, f := range opened {
			_ = f.Close()
		}
	}
	tty := func() (*os.File, error) {
		if len(opened) > 0 {
			return opened[0], nil
		}
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return nil, err
		}
		opened = append(opened, f)
		return f, nil
	}
	in, out = os.Stdin, os.Stdout
	if !isTerminal(in) {
		if in, err = tty(); err != nil {
			return nil, nil, closeFn, err
		}
	}
	if drawTTY || !isTerminal(out) {
		if out, err = tty(); err != nil {
			closeFn()
			return nil, nil, func() {}, err
		}
	}
	return in, out, closeFn, nil
}

// Model wraps m so that every view of it is drawn on s, and the messages
// that concern the terminal (its size, its colours, what it supports)
// reach s before m sees them. A panic in m's Update or View puts the
// terminal back first, so that Bubble Tea's report of it is readable.
func (s *Screen) Model(m tea.Model) tea.Model { return drawn{m: m, s: s} }

type drawn struct {
	m tea.Model
	s *Screen
}

func (d drawn) Init() tea.Cmd {
	defer d.s.closeOnPanic()
	return d.m.Init()
}

func (d drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer d.s.closeOnPanic()
	d.s.observe(msg)
	var cmd tea.Cmd
	d.m, cmd = d.m.Update(msg)
	return d, cmd
}

func (d drawn) View() tea.View {
	defer d.s.closeOnPanic()
	v := d.m.View()
	d.s.Draw(v)
	return v
}

// Unwrap returns the wrapped model.
func (d drawn) Unwrap() tea.Model { return d.m }

func (s *Screen) closeOnPanic() {
	if r := recover(); r != nil {
		_ = s.Close()
		panic(r)
	}
}
