//go:build !race

package mcpconn

// raceSlack is 1 without the race detector: see race_test.go.
const raceSlack = 1
