//go:build !linux

package procinfo

// PIDNamespace is "" here: there is no /proc to read it from.
func PIDNamespace() string { return "" }

// StartTime is "" here.
func StartTime(int) string { return "" }
