package logfile

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/paths"
)

func TestLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.log")
	w, err := openRotating(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	line := []byte(strings.Repeat("a", 39) + "\n") // 40 bytes
	for range 7 {
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	// 7 lines of 40 bytes with a cap of 100: two per file, rotated three
	// times; the oldest were dropped, one backup is kept.
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	if len(cur) != 40 || len(old) != 80 {
		t.Fatalf("after 7 writes: current %d bytes, backup %d; want 40 and 80", len(cur), len(old))
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 2 {
		t.Fatalf("want the log and one backup, found %d files", len(ents))
	}
	for _, p := range []string{path, path + ".1"} {
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
	}
	// A record larger than the cap goes whole into a fresh file.
	big := bytes.Repeat([]byte("b"), 250)
	if n, err := w.Write(big); err != nil || n != 250 {
		t.Fatalf("big write: %d, %v", n, err)
	}
	if cur, _ := os.ReadFile(path); !bytes.Equal(cur, big) {
		t.Fatalf("big record not alone in the new file: %d bytes", len(cur))
	}
}

// TestLogReopenCountsExistingSize: a log that is already near the cap is
// rotated on the first write that would pass it, not after another 10 MB.
func TestLogReopenCountsExistingSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.log")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 90), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := openRotating(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write([]byte("0123456789abc\n")); err != nil {
		t.Fatal(err)
	}
	if old, _ := os.ReadFile(path + ".1"); len(old) != 90 {
		t.Fatalf("backup holds %d bytes, want the 90 already there", len(old))
	}
}

func TestOpenLogTightensModes(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "rootpick")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "rootpick.log")
	if err := os.WriteFile(file, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := paths.FromEnv().State()
	_, closeLog, err := Open("", st, false)
	if err != nil {
		t.Fatal(err)
	}
	closeLog()
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("log folder mode %v, want 0700", st.Mode().Perm())
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, want 0600", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(file); !strings.HasPrefix(string(b), "old\n") {
		t.Errorf("the existing log was not kept: %q", b)
	}

	// A --log FILE in a shared folder: the file is tightened, the folder
	// is left alone.
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(shared, "my.log")
	if err := os.WriteFile(own, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(own, 0o666); err != nil {
		t.Fatal(err)
	}
	_, closeLog, err = Open(own, st, false)
	if err != nil {
		t.Fatal(err)
	}
	closeLog()
	if st, _ := os.Stat(shared); st.Mode().Perm() != 0o755 {
		t.Errorf("the folder of --log was changed to %v", st.Mode().Perm())
	}
	if st, _ := os.Stat(own); st.Mode().Perm() != 0o600 {
		t.Errorf("--log file mode %v, want 0600", st.Mode().Perm())
	}
}

// TestLogRedactsSecrets: every secret form, in a message, a string
// attribute, an error, a value printed with fmt, a group and an attribute
// set with With, is hidden in the log; what tells entries apart stays.
func TestLogRedactsSecrets(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.log")
	logger, closeLog, err := Open(file, paths.State{}, true)
	if err != nil {
		t.Fatal(err)
	}
	logger = logger.With("url", "http://u:pw@127.0.0.1:1/mcp?k=TOKEN1")
	logger.Info("dial http://u:pw@127.0.0.1:1/mcp?k=TOKEN1 failed",
		"err", errors.New(`Post "http://u:***@127.0.0.1:1/mcp?k=TOKEN1": refused`),
		slog.Group("g", "data", map[string]string{"u": "https://h/?t=TOKEN2#f"}),
		"plain", "127.0.0.1 v=1")
	logger.Info("bad url http://a b@127.0.0.1:47310/%zz?token=TOKEN3 refused")
	logger.Warn("server stderr", "line", "using GITHUB_TOKEN=TOKEN4 and --api-key TOKEN5")
	logger.Warn("starting npx srv --token=TOKEN6", "command", []string{"srv", "--password", "TOKEN7"})
	logger.Info("header", "h", "Authorization: Bearer TOKEN8", "note", "sk-proj-TOKEN9abcdefghijklmnop")
	logger.Info("a secret's name", "api_key", "TOKEN10", "token", 12345678)
	closeLog()
	b, _ := os.ReadFile(file)
	s := string(b)
	for _, secret := range []string{"pw", "TOKEN1", "TOKEN2", "u:***", "#f", "a b@", "TOKEN3", "TOKEN4", "TOKEN5",
		"TOKEN6", "TOKEN7", "TOKEN8", "TOKEN9", "TOKEN10", "12345678"} {
		if strings.Contains(s, secret) {
			t.Errorf("log holds %q:\n%s", secret, s)
		}
	}
	for _, kept := range []string{"http://REDACTED@127.0.0.1:1/mcp?k=REDACTED", "https://h/?t=REDACTED", `plain="127.0.0.1 v=1"`,
		"http://REDACTED@127.0.0.1:47310/%zz?token=REDACTED", "GITHUB_TOKEN=REDACTED", "--api-key REDACTED",
		"sk-REDACTED", "Bearer REDACTED", "api_key=REDACTED"} {
		if !strings.Contains(s, kept) {
			t.Errorf("log lost %q:\n%s", kept, s)
		}
	}
}
