package launch

// WouldEnforce says whether a stdio server started now, in this process's
// program, with setting would run enforced (and with which Landlock ABI),
// or advisory and why — as a proxy on this machine would start it. It makes
// no ruleset and starts nothing; EnforceRequire where the kernel cannot is
// advisory here, with the reason the server would not start.
func WouldEnforce(setting Enforce) Enforcement {
	abi, why, err := decideEnforcement(setting, "")
	if err != nil || abi == 0 {
		if err != nil {
			why = "it would not start (enforce = require): " + why
		}
		return Enforcement{Advisory: why}
	}
	return Enforcement{Enforced: true, ABI: abi}
}
