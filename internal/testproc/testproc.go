// Package testproc holds the process calls that the tests of two packages
// (rootpick's end-to-end tests and mcpconn's) make to start servers in
// their own session or group and to signal them. It has its own folder
// because test files cannot be shared between packages, and each call
// needs one body per system so that the tests build and vet on Windows
// too (GOOS=windows go vet ./... in .ci/run). Only tests import it.
package testproc
