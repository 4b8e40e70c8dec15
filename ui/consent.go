package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// consentSavedMsg says the consent store and audit log were written.
type consentSavedMsg struct{ err error }

// resumeMsg is the remembered consent checked again at start (--resume):
// roots when every one is admitted again, or why not.
type resumeMsg struct {
	roots  []consent.Root
	grants map[string][]string
	err    error
}

// proposeConsent resolves the checked folders into roots, each with its
// access (readOnly: the checked paths to share read-only), and judges
// each one's risk (this reads the disk: symlinks, permissions, the top of
// each folder), off the UI goroutine.
func proposeConsent(dir string, paths []string, readOnly map[string]bool) tea.Cmd {
	return func() tea.Msg {
		env := consent.DefaultEnv(dir)
		var msg proposalMsg
		seen := map[string]bool{}
		for _, p := range paths {
			r, err := consent.NewRoot(p)
			if err != nil {
				msg.problems = append(msg.problems, skipped(p, err))
				continue
			}
			if seen[r.URI] {
				continue
			}
			seen[r.URI] = true
			r.ReadOnly = readOnly[p]
			msg.proposed = append(msg.proposed, proposedRoot{Root: r, Requested: p, Warnings: consent.Risks(p, r, env)})
		}
		return msg
	}
}

// skipped says why the checked folder p cannot be shared.
func skipped(p string, err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "skipped " + p + ": it is gone (deleted or moved since the scan)"
	}
	return "skipped " + p + ": " + strings.TrimPrefix(err.Error(), "consent: ")
}

// saveConsent remembers a confirmed set and appends its audit entry.
func saveConsent(store *consent.Store, rec consent.Record, entry consent.AuditEntry) tea.Cmd {
	return func() tea.Msg {
		err := store.Save(rec)
		if aerr := store.AppendAudit(entry); err == nil {
			err = aerr
		}
		return consentSavedMsg{err: err}
	}
}

// appendAudit records a decision that changes no remembered consent.
func appendAudit(store *consent.Store, entry consent.AuditEntry) tea.Cmd {
	return func() tea.Msg { return consentSavedMsg{err: store.AppendAudit(entry)} }
}

// resumeConsent checks the remembered consent again for the scanned
// folder dir, as the proxy does before serving it: it must have been given
// for dir, and every root must be admitted again (consent.Admit: the same
// readable folder, each warning it has now granted in the picker). One
// root that is not admitted resumes nothing: the roots stay checked for a
// review, where the dialog asks again.
func resumeConsent(dir string, rec consent.Record) tea.Cmd {
	return func() tea.Msg {
		if rec.Dir != dir {
			return resumeMsg{err: fmt.Errorf("it was given for %q, not this folder", rec.Dir)}
		}
		ok, dropped := consent.Admit(rec, consent.DefaultEnv(dir))
		if len(dropped) > 0 {
			return resumeMsg{err: errors.New(dropped[0].String())}
		}
		return resumeMsg{roots: ok, grants: keepGrants(rec.Granted, ok)}
	}
}

// keepGrants is grants restricted to the roots of set.
func keepGrants(grants map[string][]string, set []consent.Root) map[string][]string {
	out := map[string][]string{}
	for _, r := range set {
		if g, ok := grants[r.URI]; ok {
			out[r.URI] = g
		}
	}
	return out
}

// clock is the time a key is judged at (the type-ahead guard) and records
// are stamped with: Config.Now, or the wall clock. Reading it blocks on
// nothing, unlike I/O.
func (m *Model) clock() time.Time {
	if m.cfg.Now != nil {
		return m.cfg.Now()
	}
	return time.Now()
}

// Consented returns the set the person last confirmed (or resumed); it is
// what --print writes. It is set when y is pressed, not when the servers
// have been told, so a quit right after y still reports that y.
func (m *Model) Consented() []consent.Root {
	if c := m.review.sh.Confirmed(); c != nil {
		return slices.Clone(c)
	}
	return []consent.Root{}
}

// applyRemembered pre-checks the remembered roots; they are not served.
func (m *Model) applyRemembered(rec *consent.Record) {
	if rec == nil || len(rec.Roots) == 0 {
		if m.cfg.Resume {
			m.setNote("Nothing remembered to resume: nothing is shared until you confirm.", false)
		}
		return
	}
	if rec.Dir != m.cfg.Dir {
		// Checks the list cannot show would be shared by the next y.
		m.setNote("The remembered consent is for "+safetext.Escape(home(rec.Dir))+": not applied here.", false)
		return
	}
	paths := make([]string, len(rec.Roots))
	for i, r := range rec.Roots {
		paths[i] = r.Path
	}
	m.review.sh.Remember(paths)
	m.picker.SetChecked(paths)
	for _, r := range rec.Roots {
		m.picker.SetReadOnly(r.Path, r.ReadOnly)
	}
	if !m.cfg.Resume {
		m.setNote("Remembered "+itoa(len(paths))+" "+noun(len(paths), "root", "roots")+
			" from "+rec.Time.Local().Format("2006-01-02 15:04")+": checked, not shared until you confirm ("+keyName(m.keys.Review)+").", false)
	}
}

// reviewIn is what the review reads of the picker on one call: the rows
// and their checks, who a confirmation reaches (every server but the
// built-in demo one is restarted by a revoke-all, proxies included), the
// settings it names.
func (m *Model) reviewIn() reviewIn {
	to := recipients{names: m.fleet.ServerNames(m.fleetView()), restart: m.fleet.AnyProxy()}
	for _, s := range m.cfg.Servers {
		to.restart = to.restart || s.Demo == nil
	}
	to.access, to.beyond = m.fleet.AccessSentence(m.fleetView())
	return reviewIn{now: m.clock(), dir: m.cfg.Dir, rows: &m.picker, label: m.list.label, unconfirmed: m.unconfirmed,
		proxyServed: m.fleet.ProxyServed(), recipients: to, armDelay: m.cfg.ArmDelay,
		remembered: m.cfg.Remembered, store: m.cfg.Store, scanning: m.walk.running, com: m.common}
}

// toReview hands msg to the review (review.Update) with what it reads of
// the picker now, and acts on what it returns: the one way into the
// review.
func (m *Model) toReview(msg tea.Msg) tea.Cmd {
	return m.onReview(m.review.Update(msg, m.reviewIn()))
}

// onReview acts on what the review asked (review.Update): propose builds
// the proposal for the checked folders, off the loop (it reads the disk),
// after taking the highlighted row or unchecking every row; cancel puts
// the checks back, confirm serves the decision; cmd is the review's own
// (its guard's tick).
func (m *Model) onReview(action reviewAction, cmd tea.Cmd) tea.Cmd {
	switch a := action.(type) {
	case reviewPropose:
		if a.take {
			m.toggle()
		}
		if a.clear {
			m.picker.SetChecked(nil)
		}
		if a.now {
			m.setNote("", false)
			return proposeConsent(m.cfg.Dir, m.picker.Checked(), m.picker.ReadOnly())
		}
	case reviewNote:
		m.setNote(a.text, false)
	case reviewOpened:
		m.layout()
	case reviewCancel:
		if a.changed {
			m.setNote("Cancelled: nothing changed.", false)
		}
		if undo := m.review.sh.Cancel(); undo != nil {
			m.picker.SetChecked(undo)
		}
	case reviewConfirm:
		return m.confirmConsent(a.decision)
	}
	return cmd
}

// confirmConsent serves a confirmed decision, remembers it and writes the
// audit entry; warned roots that were not granted are unchecked.
func (m *Model) confirmConsent(dec consentDecision) tea.Cmd {
	final := dec.final
	change := consent.Review(m.review.sh.Served(), final)
	for _, w := range dec.withheld {
		m.picker.Uncheck(w.requested)
		m.picker.Uncheck(w.path)
	}
	grants := keepGrants(m.review.sh.Grants(), final)
	for uri, codes := range dec.granted {
		grants[uri] = codes
	}
	// The warned roots left out at y are named in the result line, so no
	// check silently disappears.
	leftOut := ""
	if w := dec.withheld; len(w) > 0 {
		names := make([]string, len(w))
		for i, r := range w {
			names[i] = m.list.label(vcsdetect.Repo{Path: r.requested})
		}
		leftOut = "not shared: " + strings.Join(names, ", ") + " (" + noun(len(w), "needs its", "each needs its") + " own yes: " + keyName(m.dkeys.Grant) + " in the dialog)"
	}
	if !m.review.sh.Confirm(final, grants, leftOut) {
		return nil
	}
	m.setNote(joinNote("Sharing…", leftOut), false)
	cmds := []tea.Cmd{serveRoots(m.cfg.Hub, final)}
	if m.cfg.Store != nil {
		m.review.sh.Saving()
		rec := consent.Record{Dir: m.cfg.Dir, Roots: final, Time: m.clock().UTC(), Granted: grants}
		entry := m.auditEntry("confirm", change)
		entry.Warnings = append(entry.Warnings, dec.acknowledged...)
		cmds = append(cmds, saveConsent(m.cfg.Store, rec, entry))
	}
	m.layout()
	return tea.Batch(cmds...)
}

func (m *Model) auditEntry(action string, change consent.Change) consent.AuditEntry {
	e := consent.AuditEntry{Time: m.clock().UTC(), Dir: m.cfg.Dir, Action: action,
		Servers: []string{}, Added: []string{}, Removed: []string{}, Warnings: []string{}}
	e.Servers = append(e.Servers, m.fleet.Names()...)
	for _, r := range change.Added {
		e.Added = append(e.Added, r.Path)
	}
	for _, r := range change.Removed {
		e.Removed = append(e.Removed, r.Path)
	}
	for _, r := range slices.Concat(change.Added, change.Kept) {
		if r.ReadOnly {
			e.ReadOnly = append(e.ReadOnly, r.Path)
		}
	}
	return e
}

func (m *Model) onConsentSaved(msg consentSavedMsg) tea.Cmd {
	done := m.review.sh.Saved()
	if msg.err != nil {
		m.setNote("Consent not remembered: "+safetext.Escape(msg.err.Error()), true)
	}
	if done {
		m.walk.stop()
		return tea.Quit
	}
	return nil
}

func (m *Model) onResume(msg resumeMsg) tea.Cmd {
	if msg.err != nil {
		m.setNote("Not resumed: "+safetext.Escape(msg.err.Error())+". The remembered roots are checked; "+keyName(m.keys.Review)+" reviews them.", true)
		return nil
	}
	if !m.review.sh.Resume(msg.roots, msg.grants) {
		m.setNote("Not resumed: a review was already under way. The remembered roots are checked; "+keyName(m.keys.Review)+" reviews them.", true)
		return nil
	}
	m.setNote("Resumed "+itoa(len(msg.roots))+" remembered "+noun(len(msg.roots), "root", "roots")+": shared without asking again (--resume).", false)
	cmds := []tea.Cmd{serveRoots(m.cfg.Hub, msg.roots)}
	if m.cfg.Store != nil {
		m.review.sh.Saving()
		cmds = append(cmds, appendAudit(m.cfg.Store, m.auditEntry("resume", consent.Review(nil, msg.roots))))
	}
	return tea.Batch(cmds...)
}

// joinNote joins a result and what was left out of it: "Consent applied:
// 1 folder; not shared: infra (needs its own yes…)".
func joinNote(result, leftOut string) string {
	if leftOut == "" {
		return result
	}
	return strings.TrimSuffix(result, ".") + "; " + leftOut
}

// served is the note once a change has reached the hub; a resumed set
// keeps saying it was resumed.
func (m *Model) servedNote(n int) string {
	if strings.HasPrefix(m.status.note, "Resumed ") {
		return m.status.note
	}
	return joinNote(sharedNote(n), m.review.sh.LeftOut())
}
