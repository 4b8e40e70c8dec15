//go:build !unix

package sampleworkspace

import (
	"os"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat does nothing where files have no inode: Git for Windows leaves
// those fields zero too.
func fillStat(*index.Entry, os.FileInfo) {}
