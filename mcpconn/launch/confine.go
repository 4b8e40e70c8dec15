package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// Confine makes cmd, made by exec.Command and not started yet, run as an
// enforced stdio server runs: under a guard, which restricts it with
// Landlock to the Policy that BuildPolicy makes of cmd's program (the file
// cmd.Path names, not one PATH finds again), arguments, environment and
// folder — its system folders, its program and interpreter, its
// launcher's cache and a private TMPDIR, nothing of the person's besides
// (no consented folder: cmd serves no consent) — and ends all it started
// when it ends or rootpick dies. It is for what rootpick runs on a
// person's behalf that is not a server: `hosts wrap`'s prefetch, which
// runs a package's install scripts (internal/prefetch). cmd's Env and
// SysProcAttr are kept (TMPDIR is added); its Path, Args and ExtraFiles
// become the guard's.
//
// Where the kernel cannot enforce it (not Linux, no Landlock, or this
// program cannot act as a guard: it did not call GuardMain), Confine
// changes nothing and returns an error saying why: the caller does not
// start cmd (a boundary fails closed).
//
// finish must be called once cmd has been waited for, or has failed to
// start, with what Start or Wait returned: it lets go of what Confine
// made (the guard's report, the TMPDIR) and returns the error to report,
// the guard's own words where it did not start the program (the ruleset
// could not be applied; the program could not be run) rather than its
// exit status.
func Confine(cmd *exec.Cmd) (finish func(error) error, err error) {
	switch {
	case cmd.Process != nil:
		return nil, errors.New("launch: Confine: the command has started already")
	case cmd.Err != nil:
		return nil, cmd.Err
	}
	if err := CanConfine(); err != nil {
		return nil, err
	}
	// Its own temporary folder, as an enforced server's: /tmp is shared
	// with every other program of the person's.
	tmp, err := newServerTmp()
	if err != nil {
		return nil, fmt.Errorf("launch: the private temporary folder: %w", err)
	}
	env := append(cmd.Environ(), "TMPDIR="+tmp)
	policy := BuildPolicy(PolicyInput{Command: append([]string{cmd.Path}, cmd.Args[1:]...), Env: env, Dir: cmd.Dir, TmpDir: tmp})
	makeCreates(policy)
	if cmd.SysProcAttr == nil {
		setProcAttr(cmd)
	}
	program, path := cmd.Args[0], cmd.Path
	report, err := guard(cmd, &policy)
	if err == nil && report == nil {
		err = errors.New("launch: no guard to enforce the ruleset")
	}
	if err != nil {
		removeTmp(tmp)
		return nil, err
	}
	cmd.Env = env
	t := &Process{program: program, path: path, report: report}
	return func(err error) error {
		started := cmd.Process != nil
		report.afterStart(started)
		// The guard exits once no process of its tree is left.
		removeTmp(tmp)
		if !started {
			return err
		}
		if err != nil {
			if serr := t.GuardStartFailure(); serr != nil {
				return serr
			}
		}
		return err
	}, nil
}

// CanConfine returns nil where Confine can confine a command, else why it
// cannot: this system has no Landlock, or this program cannot act as a
// guard.
func CanConfine() error {
	abi, why, err := decideEnforcement(EnforceRequire, os.Args[0])
	if err != nil || abi == 0 {
		return errors.New(why)
	}
	return nil
}
