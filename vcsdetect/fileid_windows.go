package vcsdetect

import "io/fs"

// idOf returns the zero fileID: Windows gives no inode through FileInfo, so
// folders are not told apart by identity there (symlink loops are still
// bounded by never following junctions unless Options.Follow).
func idOf(fs.FileInfo) fileID { return fileID{} }
