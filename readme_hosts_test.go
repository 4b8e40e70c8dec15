package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/hostcfg"
)

// TestReadmeHostLists keeps every list of hosts a person reads equal to
// hostcfg.HostTable: the README's two lists in "Use it with your agent"
// (the hosts wrap rewrites, by title, with their number; the names
// --print-config takes), and docs/hosts.md's number of hosts, its "Hosts
// at a glance" table (each host once, as "Title (`name`)") and a section
// for each host. A host added to the table and not to these, or named
// there and not in the table, fails here, with the text as it must read.
func TestReadmeHostLists(t *testing.T) {
	var names, titles []string
	for _, h := range hostcfg.HostTable {
		names = append(names, h.Name)
		titles = append(titles, h.Title)
	}
	count := numberWords(t, len(hostcfg.HostTable))
	readme := strings.Join(strings.Fields(docSection(t, "README.md", "## Use it with your agent")), " ")

	// The hosts wrap rewrites, by title.
	wrapped := between(t, readme, "README.md", "`rootpick hosts wrap [HOST] [SERVER...]` rewrites the stdio servers of ", " ([docs/hosts.md]")
	if want := count + " agent hosts — " + hostList(titles, "and"); wrapped != want {
		missing, extra := titlesIn(wrapped, titles)
		t.Errorf("README.md's list of the hosts wrap rewrites: missing %q, not in hostcfg.HostTable %q; it should read:\n%s", missing, extra, want)
	}

	// The names --print-config takes: the hosts' and inspector.
	printed := between(t, readme, "README.md", "`rootpick proxy --print-config HOST` prints the entry to add (", "; where it goes")
	want := append(slices.Clone(names), "inspector")
	got := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(printed, -1)
	var gotNames []string
	for _, m := range got {
		gotNames = append(gotNames, m[1])
	}
	if quoted := hostList(backquoted(want), "or"); printed != quoted {
		t.Errorf("README.md's names for --print-config: missing %q, not taken by it %q; it should read:\n%s",
			without(want, gotNames), without(gotNames, want), quoted)
	}

	// docs/hosts.md: the number, the glance table, a section each.
	raw, err := os.ReadFile("docs/hosts.md")
	if err != nil {
		t.Fatal(err)
	}
	b := string(raw)
	if want := "reads the MCP server entries of " + count + " agent hosts"; !strings.Contains(strings.Join(strings.Fields(b), " "), want) {
		t.Errorf("docs/hosts.md does not say that %s", want)
	}
	glance := docSection(t, "docs/hosts.md", "## Hosts at a glance")
	named := map[string]string{} // name → the title the table gives it
	cell := regexp.MustCompile("(?:^|, )([^,]+?) \\(`([a-z0-9-]+)`\\)")
	for _, row := range strings.Split(glance, "\n") {
		first, _, ok := strings.Cut(strings.TrimPrefix(row, "| "), " |")
		if !ok || !strings.HasPrefix(row, "| ") {
			continue
		}
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			if _, twice := named[m[2]]; twice {
				t.Errorf("docs/hosts.md's Hosts at a glance names %s twice", m[2])
			}
			named[m[2]] = m[1]
		}
	}
	for _, h := range hostcfg.HostTable {
		title, ok := named[h.Name]
		switch {
		case !ok:
			t.Errorf("docs/hosts.md's Hosts at a glance misses %s (`%s`)", h.Title, h.Name)
		case title != h.Title:
			t.Errorf("docs/hosts.md's Hosts at a glance calls %s %q, hostcfg.HostTable %q", h.Name, title, h.Title)
		}
		if !strings.Contains(b, "\n## "+h.Title+"\n") && !strings.Contains(b, "\n## "+h.Title+" (`"+h.Name+"`)\n") {
			t.Errorf("docs/hosts.md has no section \"## %s (`%s`)\"", h.Title, h.Name)
		}
		delete(named, h.Name)
	}
	for name := range named {
		t.Errorf("docs/hosts.md's Hosts at a glance names %s, which is no host of hostcfg.HostTable", name)
	}
}

// between is the text of s (from file) after start, up to end.
func between(t *testing.T, s, file, start, end string) string {
	t.Helper()
	_, after, ok := strings.Cut(s, start)
	if !ok {
		t.Fatalf("%s lacks %q", file, start)
	}
	in, _, ok := strings.Cut(after, end)
	if !ok {
		t.Fatalf("%s: no %q after %q", file, end, start)
	}
	return in
}

// titlesIn says which of titles the list text lacks, and what else it
// names: the text left once every title is taken out, longest first (VS
// Code Insiders before VS Code), cut at the list's commas and "and"s.
func titlesIn(text string, titles []string) (missing, extra []string) {
	byLength := slices.Clone(titles)
	slices.SortStableFunc(byLength, func(a, b string) int { return len(b) - len(a) })
	for _, title := range byLength {
		if !strings.Contains(text, title) {
			missing = append(missing, title)
		}
		text = strings.ReplaceAll(text, title, ",")
	}
	_, text, _ = strings.Cut(text, "agent hosts —")
	for _, part := range regexp.MustCompile(`,| and `).Split(text, -1) {
		if part = strings.TrimSpace(part); part != "" {
			extra = append(extra, part)
		}
	}
	return missing, extra
}

// backquoted is each of names in backquotes.
func backquoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}

// without is a's strings that are not in b.
func without(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// numberWords writes n (below a hundred) as prose does: "thirty-two".
func numberWords(t *testing.T, n int) string {
	t.Helper()
	ones := strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
	tens := strings.Fields("_ _ twenty thirty forty fifty sixty seventy eighty ninety")
	switch {
	case n >= 100:
		t.Fatalf("%d hosts: teach numberWords hundreds", n)
	case n < 20:
		return ones[n]
	case n%10 == 0:
		return tens[n/10]
	}
	return tens[n/10] + "-" + ones[n%10]
}
