//go:build !unix

package consent

import "os"

// linkCount is 1: hard links are not looked for on this system.
func linkCount(os.FileInfo) uint64 { return 1 }
