package proxy

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/safetext"
)

// DefaultInstallGrace bounds how long an ending proxy lets a launcher
// that is still installing (npx, uvx, pnpm dlx… on a first start, not yet
// answered) finish. Ending it mid-install is what breaks npx's cache for
// every later start (a package folder without its dependencies and a stale
// lock: ERR_MODULE_NOT_FOUND); a cold npx download of server-filesystem
// took 51 s on a loaded machine, and npm's own retries of a slow download
// run to a minute each; three minutes covers that several times over and
// still ends a proxy whose host is gone within a few minutes.
const DefaultInstallGrace = 3 * time.Minute

// installNoticeEvery is how often a launcher that has not answered yet is
// told on stderr (and in the log): hosts show a server's stderr in their
// logs, and the host's own timeout is usually a few tens of seconds.
const installNoticeEvery = 5 * time.Second

func (p *proxy) noticeEvery() time.Duration {
	return cmp.Or(p.opts.noticeEvery, installNoticeEvery)
}

// notice says line on the proxy's stderr (opts.Notice) and in its log.
func (p *proxy) notice(line string) {
	p.log.Info(line)
	if p.opts.Notice != nil {
		// The host may have closed its end: a lost line is fine (the
		// root command makes a broken pipe an error, not a signal).
		_, _ = fmt.Fprintln(p.opts.Notice, line)
	}
}

// installing is what c's launcher installs, as shown: "npx is still
// installing @scope/pkg".
func (p *proxy) installing() string {
	return fmt.Sprintf("%s is still installing %s", p.launcher.Tool, safetext.EscapeMax(p.launcher.What(), 200))
}

// minutes writes a bound as a person reads it: "3 min", or "500ms".
func minutes(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return d.String()
}

func seconds(since time.Time) int { return int(time.Since(since).Round(time.Second).Seconds()) }

// installWatch is what watchInstall says of a launcher that has not
// answered yet.
type installWatch int

const (
	// noWatch: nothing; the server is no launcher, or an npx whose install
	// is complete (a warm start that is merely slow installs nothing).
	noWatch installWatch = iota
	// watchFirstInstall: npx with no complete install of the server in
	// its cache (firstInstall): it is installing, and is said to be.
	watchFirstInstall
	// watchMayInstall: a launcher whose cache cannot be read that way
	// (uvx, pnpm dlx…): it has not answered, and may be installing.
	watchMayInstall
)

// installWatch says how a start of the server is watched while the host
// waits. It is asked right after the start, which sees what the start
// saw: npx writes the "_npx" that marks an install complete last, seconds
// into the install.
func (p *proxy) installWatch() installWatch {
	switch {
	case p.launcher == nil:
		return noWatch
	case !p.npx():
		return watchMayInstall
	case p.firstInstall():
		return watchFirstInstall
	}
	return noWatch
}

// watchInstall tells, every noticeEvery while the host waits, that c's
// launcher has not answered yet (how: w): what it installs, or may be
// installing, and for how long.
func (p *proxy) watchInstall(c *child, w installWatch) {
	if w == noWatch {
		return
	}
	what := safetext.EscapeMax(p.launcher.What(), 200)
	t := time.NewTicker(p.noticeEvery())
	defer t.Stop()
	told := false
	for {
		select {
		case <-c.spoke:
			switch {
			case !told:
			case w == watchFirstInstall:
				p.notice(fmt.Sprintf("rootpick proxy: %s answered after %d s (its first start installed %s)", p.launcher.Tool, seconds(c.started), what))
			default:
				p.notice(fmt.Sprintf("rootpick proxy: %s answered after %d s", p.launcher.Tool, seconds(c.started)))
			}
			return
		case <-c.done:
			return
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.mu.Lock()
			stopped := c.stopped
			p.mu.Unlock()
			if stopped {
				return // letInstallFinish says it from now on
			}
			told = true
			if w == watchFirstInstall {
				p.notice(fmt.Sprintf("rootpick proxy: %s (first start, %d s so far); the host is waiting for it", p.installing(), seconds(c.started)))
			} else {
				p.notice(fmt.Sprintf("rootpick proxy: %s has not answered yet (%d s so far): it may be installing %s; the host is waiting for it", p.launcher.Tool, seconds(c.started), what))
			}
		}
	}
}

// npx reports whether the server's launcher is npx (or npm exec), whose
// cache tells a first install from a warm start (firstInstall).
func (p *proxy) npx() bool {
	return p.launcher != nil && (p.launcher.Tool == "npx" || p.launcher.Tool == "npm exec")
}

// firstInstall reports whether the server is npx (or npm exec) whose
// install folder (prefetch.NpxDir, in npm_config_cache or ~/.npm) is not
// complete: this start installs. Such a server is started so that it may
// outlive the proxy (outlive_linux.go): a host that kills the proxy with
// SIGKILL while npx installs (the TypeScript SDK's hosts do, 4 s after
// they give up) must not leave the install half-written. A complete
// folder (npx wrote "_npx" into its package.json, its last step) means a
// start that only runs, which dies with the proxy as every server does.
// Other launchers cannot be told cold from warm this way: they are let
// finish while the proxy lives (letInstallFinish) only. The same check
// decides whether the proxy says, while the host waits, that npx is
// installing (installWatch): a warm start that is merely slow is not.
func (p *proxy) firstInstall() bool {
	_, first := p.npxInstall()
	return first
}

// npxInstall is firstInstall, with the install folder it looked at.
func (p *proxy) npxInstall() (dir string, first bool) {
	l := p.launcher
	if !p.npx() {
		return "", false
	}
	cache := ""
	for _, name := range []string{"npm_config_cache", "NPM_CONFIG_CACHE"} {
		if v := os.Getenv(name); filepath.IsAbs(v) {
			cache = v
			break
		}
	}
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil || !filepath.IsAbs(home) {
			return "", false
		}
		cache = filepath.Join(home, ".npm")
	}
	dir = prefetch.NpxDir(cache, l.Packages)
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	return dir, err != nil || !bytes.Contains(b, []byte(`"_npx"`))
}

// outliveBound is how long a server started now may outlive the proxy:
// its InstallGrace for a first install (firstInstall), 0 (it dies with
// the proxy) for any other start. Its guard ends it once that long has
// passed since the proxy died (outlive_linux.go).
func (p *proxy) outliveBound() time.Duration {
	dir, first := p.npxInstall()
	if !first {
		return 0
	}
	p.log.Info("npx has not installed the server yet: this start installs, and may outlive the proxy until the install is done", "folder", dir)
	return p.opts.InstallGrace
}

// installingNow reports whether c is a launcher that has answered nothing
// and still runs: ending it now would cut its install short.
func (p *proxy) installingNow(c *child) bool {
	if p.launcher == nil || c.exited == nil {
		return false
	}
	select {
	case <-c.spoke:
		return false
	case <-c.exited:
		return false
	default:
		return true
	}
}

// retireInstall, for a child replaced (restarted) while its launcher is
// still installing, lets the install finish beside the new child
// (letInstallFinish, in the background; npm's lock makes the new npx
// wait for it), then ends it; stopAll waits for it. It returns false,
// doing nothing, for any other child.
func (p *proxy) retireInstall(c *child, why string) bool {
	if !p.installingNow(c) {
		return false
	}
	p.retiring.Add(1)
	go func() {
		defer p.retiring.Done()
		defer panics.Guard()
		p.letInstallFinish(c, why)
		c.stop()
		_ = c.conn.Close()
	}()
	return true
}

// letInstallFinish, when c is ended (why: the host went away, a signal, a
// restart) while its launcher has not answered anything (it is still
// installing), closes c's input and waits
// until c's process exits — a launcher finishes its install, then starts
// the server, which reads what the host sent and the end of its input,
// and exits — for InstallGrace at most, or until Hurry. It returns at
// once for a server that has answered, has exited, or is no launcher.
// The caller ends c's processes after.
func (p *proxy) letInstallFinish(c *child, why string) {
	if !p.installingNow(c) {
		return
	}
	grace := p.opts.InstallGrace
	p.notice(fmt.Sprintf("rootpick proxy: %s (first start, %d s so far); %s — letting the install finish (up to %s) so that the next start is fast",
		p.installing(), seconds(c.started), why, minutes(grace)))
	_ = c.conn.Close() // its input ends; the install goes on
	waited := time.Now()
	tick := time.NewTicker(p.noticeEvery())
	defer tick.Stop()
	bound := time.NewTimer(grace)
	defer bound.Stop()
	for {
		select {
		case <-c.exited:
			p.notice(fmt.Sprintf("rootpick proxy: %s finished after %d s (%d s after %s); the next start should be fast",
				p.launcher.Tool, seconds(c.started), seconds(waited), why))
			return
		case <-bound.C:
			p.notice(fmt.Sprintf("rootpick proxy: %s after %s more; ending it now: its cache may be left incomplete (a later start failing with ERR_MODULE_NOT_FOUND: see rootpick's docs/troubleshooting.md)",
				p.installing(), minutes(grace)))
			return
		case <-p.opts.Hurry:
			p.notice(fmt.Sprintf("rootpick proxy: told to stop again: ending %s now, in the middle of its install of %s",
				p.launcher.Tool, safetext.EscapeMax(p.launcher.What(), 200)))
			return
		case <-tick.C:
			p.notice(fmt.Sprintf("rootpick proxy: %s (%d s so far); waiting for it to finish", p.installing(), seconds(c.started)))
		}
	}
}
