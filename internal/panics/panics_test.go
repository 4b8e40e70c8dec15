package panics

import "testing"

// TestGuardRunsTheHookAndPanicsOn: the hook runs once, before the panic
// goes on with its own value.
func TestGuardRunsTheHookAndPanicsOn(t *testing.T) {
	ran := 0
	SetHook(func() { ran++ })
	defer SetHook(nil)
	for range 2 {
		got := func() (r any) {
			defer func() { r = recover() }()
			defer Guard()
			panic("boom")
		}()
		if got != "boom" {
			t.Fatalf("the panic went on with %v, want boom", got)
		}
	}
	if ran != 1 {
		t.Fatalf("the hook ran %d times, want once", ran)
	}
	func() {
		defer Guard() // no panic: nothing to do
	}()
}
