//go:build race

package mcpconn

// raceSlack multiplies the time bounds of
// TestRevokeAllRestartsEveryServerWithinASecond under the race detector.
// Every server there is this test binary, built with it, and ten of them
// restart at once: on 2 cores shared with other test runs (load 8–11) the
// healthy ones held [] 1.0–4.3 s after SetRoots(nil) with -race, against
// 0.1–0.9 s without. The 1 s target, and the figure in docs/troubleshooting.md, are checked
// and measured without -race; with it the test checks what the servers
// hold and what the UI is told, and only a loose bound.
const raceSlack = 10
