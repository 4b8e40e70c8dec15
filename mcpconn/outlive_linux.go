//go:build linux

package mcpconn

import "os/exec"

// outliveParent lets cmd (a server's guard, or the server where there is
// no guard) outlive rootpick: no signal when rootpick dies. For a
// launcher's first start only (proxy_install.go): hosts built on the
// TypeScript SDK end a server that misses their timeout by closing its
// input, SIGTERM 2 s later and SIGKILL 2 s after that, and npx killed in
// the middle of its install leaves its cache broken for every later
// start. Outliving, the install finishes; then the server reads the end
// of its input (rootpick's end of the pipe is gone) and exits, and its
// guard ends what is left of its tree and exits too. It still runs under
// its ruleset, and nothing can talk to it.
func outliveParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr != nil {
		cmd.SysProcAttr.Pdeathsig = 0
	}
}
