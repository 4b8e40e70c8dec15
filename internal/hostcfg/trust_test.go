package hostcfg

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestGeminiFolderTrust: a folder is untrusted for Gemini CLI when the
// longest trust rule whose folder holds it is DO_NOT_TRUST (TRUST_PARENT
// standing for the rule's parent), links resolved, unless the person's
// settings turn folder trust off; no file, or no rule, decides nothing.
func TestGeminiFolderTrust(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	src := filepath.Join(home, "src")
	app := filepath.Join(src, "app")
	link := filepath.Join(home, "app-link")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(app, link); err != nil {
		t.Fatal(err)
	}
	trust := filepath.Join(home, ".gemini", "trustedFolders.json")
	settings := filepath.Join(home, ".gemini", "settings.json")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	q := strconv.Quote
	for _, tc := range []struct {
		name, rules, settings, folder string
		untrusted                     bool
		rule                          string
	}{
		{"no file", "", "", app, false, ""},
		{"the folder itself", `{` + q(app) + `: "DO_NOT_TRUST"}`, "", app, true, app},
		{"a folder above", `{` + q(src) + `: "DO_NOT_TRUST"}`, "", app, true, src},
		{"trusted", `{` + q(app) + `: "TRUST_FOLDER"}`, "", app, false, app},
		{"the longest rule decides", `{` + q(src) + `: "DO_NOT_TRUST", ` + q(app) + `: "TRUST_FOLDER"}`, "", app, false, app},
		{"the longest rule decides, untrusting", `{` + q(src) + `: "TRUST_FOLDER", ` + q(app) + `: "DO_NOT_TRUST"}`, "", app, true, app},
		{"TRUST_PARENT trusts the parent", `{` + q(filepath.Join(src, "other")) + `: "TRUST_PARENT", ` + q(home) + `: "DO_NOT_TRUST"}`, "", app, false, filepath.Join(src, "other")},
		{"a sibling's rule", `{` + q(filepath.Join(src, "other")) + `: "DO_NOT_TRUST"}`, "", app, false, ""},
		{"through a link", `{` + q(app) + `: "DO_NOT_TRUST"}`, "", link, true, app},
		{"with a comment", "// mine\n{" + q(app) + `: "DO_NOT_TRUST"}`, "", app, true, app},
		{"folder trust off", `{` + q(app) + `: "DO_NOT_TRUST"}`, `{"security": {"folderTrust": {"enabled": false}}}`, app, false, ""},
		{"folder trust on", `{` + q(app) + `: "DO_NOT_TRUST"}`, `{"security": {"folderTrust": {"enabled": true}}}`, app, true, app},
	} {
		_ = os.Remove(trust)
		_ = os.Remove(settings)
		if tc.rules != "" {
			write(trust, tc.rules)
		}
		if tc.settings != "" {
			write(settings, tc.settings)
		}
		got, err := GeminiFolderTrust(home, tc.folder, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.Untrusted != tc.untrusted || got.Rule != tc.rule {
			t.Errorf("%s: %+v; want untrusted %v by the rule %q", tc.name, got, tc.untrusted, tc.rule)
		}
	}
	// GEMINI_CLI_TRUSTED_FOLDERS_PATH moves the file.
	_ = os.Remove(trust)
	moved := filepath.Join(dir, "trust.json")
	write(moved, `{`+q(app)+`: "DO_NOT_TRUST"}`)
	getenv := func(name string) string {
		if name == "GEMINI_CLI_TRUSTED_FOLDERS_PATH" {
			return moved
		}
		return ""
	}
	if got, err := GeminiFolderTrust(home, app, getenv); err != nil || !got.Untrusted || got.File != moved {
		t.Errorf("GEMINI_CLI_TRUSTED_FOLDERS_PATH: %+v, %v", got, err)
	}
}
