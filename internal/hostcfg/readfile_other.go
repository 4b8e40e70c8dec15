//go:build !unix

package hostcfg

import (
	"io/fs"
	"os"
)

// openFlags: this system has no FIFOs or devices among ordinary paths to
// block on, and os opens no link without following it.
func openFlags(bool) int { return os.O_RDONLY }

// notYours: files here have no owner that os exposes; a link is still
// followed only to a regular file.
func notYours(fs.FileInfo) string { return "" }

// sameOwner: no owners to compare.
func sameOwner(a, b fs.FileInfo) bool { return true }
