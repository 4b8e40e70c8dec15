package hostcfg

// Gemini CLI's trusted folders: in a folder the person marked untrusted,
// Gemini CLI runs in a "safe mode" that reads no project settings
// (.gemini/settings.json) and connects no MCP server at all — the
// person's own included, wrapped or not (google-gemini/gemini-cli
// docs/cli/trusted-folders.md; packages/core/src/utils/trust.ts). Nothing
// in the server entries says so, so rootpick hosts reads the trust file
// to say it beside them.

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// The trust levels of Gemini CLI's trustedFolders.json.
const (
	geminiTrustFolder = "TRUST_FOLDER"
	geminiTrustParent = "TRUST_PARENT" // the rule's parent folder and all below it
	geminiDoNotTrust  = "DO_NOT_TRUST"
)

// GeminiTrust is what Gemini CLI's trusted folders say of a folder.
type GeminiTrust struct {
	// Untrusted says the folder is marked untrusted: the rule that
	// decides for it (the longest rule path whose folder holds it) is
	// DO_NOT_TRUST, and the person's settings do not turn folder trust
	// off.
	Untrusted bool
	// Rule is the deciding rule's path, as the file writes it, and File
	// the trust file that holds it.
	Rule, File string
}

// GeminiFolderTrust reads what Gemini CLI's trusted folders say of
// folder, as Gemini CLI decides it: the trust file is
// $GEMINI_CLI_TRUSTED_FOLDERS_PATH (when absolute) or
// ~/.gemini/trustedFolders.json, an object of folder path → trust level;
// the rule whose path is longest among those whose folder (the rule's
// path, or its parent for TRUST_PARENT) holds folder decides, both sides
// with their links resolved; "security": {"folderTrust": {"enabled":
// false}} in ~/.gemini/settings.json turns it all off. home is the home
// folder, getenv the environment (nil reads none). A missing trust file
// decides nothing (the zero GeminiTrust); one that cannot be read or
// decoded is an error (Gemini CLI itself stops on it).
//
// GEMINI_CLI_TRUST_WORKSPACE and an IDE's answer, which Gemini CLI asks
// first, belong to the session that starts it and are not known here.
func GeminiFolderTrust(home, folder string, getenv func(string) string) (GeminiTrust, error) {
	if home == "" || !filepath.IsAbs(folder) {
		return GeminiTrust{}, nil
	}
	if off, err := geminiTrustOff(filepath.Join(home, ".gemini", "settings.json")); err != nil || off {
		return GeminiTrust{}, err
	}
	file := filepath.Join(home, ".gemini", "trustedFolders.json")
	if getenv != nil {
		if v := getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); filepath.IsAbs(v) {
			file = filepath.Clean(v)
		}
	}
	data, err := ReadConfig(file, MaxProjectFile)
	if errors.Is(err, fs.ErrNotExist) {
		return GeminiTrust{}, nil
	}
	if err != nil {
		return GeminiTrust{}, err
	}
	v, err := decodeJSON(data)
	if err != nil {
		return GeminiTrust{}, err
	}
	rules, ok := v.(map[string]any)
	if !ok {
		return GeminiTrust{}, errors.New(file + ": not a JSON object")
	}
	at := realPath(folder)
	var best string
	var level string
	for rule, l := range rules {
		lv, _ := l.(string)
		if lv != geminiTrustFolder && lv != geminiTrustParent && lv != geminiDoNotTrust {
			continue
		}
		if !filepath.IsAbs(rule) {
			continue
		}
		dir := filepath.Clean(rule)
		if lv == geminiTrustParent {
			dir = filepath.Dir(dir)
		}
		if !within(realPath(dir), at) {
			continue
		}
		// The longest rule path decides (Gemini CLI compares the rules'
		// lengths as the file writes them, the first found winning a
		// tie: ties are read in path order here, for one answer).
		if len(rule) > len(best) || (len(rule) == len(best) && rule < best) {
			best, level = rule, lv
		}
	}
	return GeminiTrust{Untrusted: level == geminiDoNotTrust, Rule: best, File: file}, nil
}

// geminiTrustOff reports whether Gemini CLI's user settings at path turn
// folder trust off ("security": {"folderTrust": {"enabled": false}}); a
// missing file turns nothing off.
func geminiTrustOff(path string) (bool, error) {
	data, err := ReadConfig(path, MaxConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	v, err := decodeJSON(data)
	if err != nil {
		return false, err
	}
	enabled := lookup(v, []string{"security", "folderTrust", "enabled"})
	return enabled == false, nil
}

// realPath is path with its links resolved, or path when it cannot be
// (it does not exist), as Gemini CLI compares paths.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
