package consent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/rootpick/rootpick/internal/paths"
)

// DefaultProfile names the consent store used when no --profile is given.
const DefaultProfile = "default"

// Record is one profile's remembered consent: the roots a person confirmed
// last, for which scanned folder, and when.
type Record struct {
	Profile string    `json:"profile"`
	Dir     string    `json:"dir"`
	Roots   []Root    `json:"roots"`
	Time    time.Time `json:"time"`
	// Granted holds, by root URI, the codes of the warnings (WarnHome,
	// WarnOutside, …) the person acknowledged when granting that root in
	// the picker's dialog. A root read back is served only if each of its
	// warnings, judged again then, is among them (see Admit).
	Granted map[string][]string `json:"granted,omitempty"`
}

// AuditEntry is one line of the audit log: a decision and what it granted.
// Added and Removed hold root paths; Warnings the reasons the person
// acknowledged for roots granted in spite of them ("path: reason").
type AuditEntry struct {
	Time     time.Time `json:"time"`
	Profile  string    `json:"profile"`
	Dir      string    `json:"dir"`
	Action   string    `json:"action"` // "confirm", "resume" or "forget"
	Servers  []string  `json:"servers"`
	Added    []string  `json:"added"`
	Removed  []string  `json:"removed"`
	Warnings []string  `json:"warnings_acknowledged"`
	// ReadOnly holds the paths of the confirmed set shared read-only
	// (Root.ReadOnly); the others are shared read and write.
	ReadOnly []string `json:"read_only,omitempty"`
}

// Store is the remembered consent of one profile: a JSON file under the
// user's state folder, written atomically, plus a shared audit log. Any
// process may open the same profile; a reader sees either the previous
// record or the next one, never half of one.
type Store struct {
	profile string
	state   paths.State // rootpick's state folder
	dir     string      // the consent folder, in state
}

// ValidateProfile reports an error unless name can name a profile: 1 to 64
// characters among letters, digits, '-', '_' and '.', not starting with
// '.', so it cannot leave the consent folder or hide in it.
func ValidateProfile(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("consent: profile name %q: must be 1 to 64 characters", name)
	}
	if name[0] == '.' {
		return fmt.Errorf("consent: profile name %q: must not start with '.'", name)
	}
	for _, c := range name {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-_.", c)
		if !ok {
			return fmt.Errorf("consent: profile name %q: only letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

// StatePath is the file holding profile's remembered consent:
// $XDG_STATE_HOME/rootpick/consent/<profile>.json.
func StatePath(profile string) (string, error) {
	s, err := OpenStore(profile)
	if err != nil {
		return "", err
	}
	return s.Path(), nil
}

// OpenStore returns the store of profile in the state folder the
// environment names now (paths.FromEnv: $XDG_STATE_HOME/rootpick, else
// ~/.local/state/rootpick), for tools and tests; the commands open theirs
// with OpenStoreAt, in the state folder of their run. It touches nothing on
// disk: the folder is made (0700) on the first Save or AppendAudit.
func OpenStore(profile string) (*Store, error) {
	state, err := paths.FromEnv().State()
	if err != nil {
		return nil, fmt.Errorf("consent: %w", err)
	}
	return OpenStoreAt(state, profile)
}

// OpenStoreIn is OpenStore with rootpick's state folder given: the store
// is state/consent/<profile>.json. state must be absolute; it is handled
// as rootpick's default state folder (tightened to 0700 if found loose).
func OpenStoreIn(state, profile string) (*Store, error) {
	return OpenStoreAt(paths.State{Dir: state}, profile)
}

// OpenStoreAt is the store of profile in the state folder state: the
// record is state.Dir/consent/<profile>.json. state.Dir must be absolute;
// a folder the person named (state.Named) is never changed (OpenStateDir).
func OpenStoreAt(state paths.State, profile string) (*Store, error) {
	if err := ValidateProfile(profile); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(state.Dir) {
		return nil, fmt.Errorf("consent: the state folder %q is not an absolute path", state.Dir)
	}
	state.Dir = filepath.Clean(state.Dir)
	return &Store{profile: profile, state: state, dir: filepath.Join(state.Dir, "consent")}, nil
}

// Profile is the store's profile name.
func (s *Store) Profile() string { return s.profile }

// Path is the record's file. It is replaced by a rename on every Save, so
// a watcher should watch its folder (Dir) and filter on this name.
func (s *Store) Path() string { return filepath.Join(s.dir, s.profile+".json") }

// Dir is the consent folder holding every profile's record.
func (s *Store) Dir() string { return s.dir }

// AuditPath is the audit log shared by every profile, one JSON object a line.
func (s *Store) AuditPath() string { return filepath.Join(s.dir, "audit.jsonl") }

// Load reads the remembered consent. When nothing is remembered the error
// satisfies errors.Is(err, fs.ErrNotExist).
//
// The record is believed only if it and its folders are the person's own
// (see OpenOwnDir and OwnDir.ReadFile); otherwise the error is an
// *UntrustedError. Even a believed record is a claim, not a grant: pass it
// through Admit before serving its roots.
func (s *Store) Load() (Record, error) {
	b, err := s.read()
	if err != nil {
		var u *UntrustedError
		if errors.As(err, &u) {
			return Record{}, fmt.Errorf("consent: not believed: %w", err)
		}
		if errors.Is(err, fs.ErrNotExist) { // the record, or a folder on its way
			return Record{}, fmt.Errorf("consent: no record at %s yet: %w", s.Path(), fs.ErrNotExist)
		}
		return Record{}, fmt.Errorf("consent: %w", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, fmt.Errorf("consent: reading %s: %w", s.Path(), err)
	}
	if r.Profile != s.profile {
		return Record{}, fmt.Errorf("consent: %s belongs to profile %q", s.Path(), r.Profile)
	}
	for _, root := range r.Roots {
		if p, err := URIToPath(root.URI); err != nil || p != root.Path {
			return Record{}, fmt.Errorf("consent: %s: root %q does not match its URI %q", s.Path(), root.Path, root.URI)
		}
	}
	return r, nil
}

// read reads the record's bytes through its checked folders.
func (s *Store) read() ([]byte, error) {
	d, err := s.open(false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(filepath.Base(s.Path()))
}

// saveHook, when set by a test, runs after the temporary file is written
// and synced and before it replaces the record; an error it returns stops
// Save there, as a crash at that point would.
var saveHook func(tmp string) error

// Save replaces the remembered consent with r (its Profile is set to the
// store's). The record is written to a temporary file in the same folder,
// synced, and renamed over the old one, and the folder is synced: a crash
// at any point leaves the previous record or the new one. The file is 0600
// in a 0700 folder.
func (s *Store) Save(r Record) error {
	r.Profile = s.profile
	if r.Roots == nil {
		r.Roots = []Root{}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	d, err := s.open(true)
	if err != nil {
		return fmt.Errorf("consent: saving: %w", err)
	}
	defer d.Close()
	if err := d.WriteFile(filepath.Base(s.Path()), b, saveHook); err != nil {
		return fmt.Errorf("consent: saving: %w", err)
	}
	return nil
}

// Forget removes the remembered consent; forgetting nothing is no error.
func (s *Store) Forget() error {
	d, err := s.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("consent: forgetting: %w", err)
	}
	defer d.Close()
	err = d.Remove(filepath.Base(s.Path()))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("consent: forgetting: %w", err)
	}
	return nil
}

// AppendAudit adds e to the audit log as one JSON line (its Profile is set
// to the store's, a zero Time to now). The line is written with one
// O_APPEND write, so lines of concurrent writers do not interleave.
func (s *Store) AppendAudit(e AuditEntry) error {
	e.Profile = s.profile
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(e); err != nil {
		return err
	}
	d, err := s.open(true)
	if err != nil {
		return fmt.Errorf("consent: audit log: %w", err)
	}
	defer d.Close()
	if err := d.Append(filepath.Base(s.AuditPath()), buf.Bytes()); err != nil {
		return fmt.Errorf("consent: audit log: %w", err)
	}
	return nil
}

// open opens the consent folder, checked to be the person's own along with
// rootpick's state folder above it; with create, both are made 0700.
func (s *Store) open(create bool) (*OwnDir, error) {
	return OpenStateDir(s.state, create, filepath.Base(s.dir))
}
