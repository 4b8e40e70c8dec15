package vcsdetect

import (
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// The decoders of gitrepo.go replace go-git's Commit.Decode and
// Tree.Decode (for speed: no signature or encoding work, no OpenPGP); these
// differential fuzz tests hold them to go-git's on any bytes: where
// go-git decodes an object, ours gives the same tree, parents, committer
// time and message, or the same entries; where go-git refuses one, so do
// ours. Run longer with go test -fuzz FuzzParseCommit ./vcsdetect/.

func FuzzParseCommit(f *testing.F) {
	for _, seed := range []string{
		"tree " + treeHex + "\nparent " + parentHex + "\nauthor A <a@x> 1700000000 +0100\ncommitter C <c@x> 1700000001 -0230\n\nsubject\n\nbody\n",
		"tree " + treeHex + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n x\n -----END PGP SIGNATURE-----\n\nm",
		"tree " + treeHex + "\nparent " + parentHex + "\nparent " + otherHex + "\ncommitter C <c@x> 5\n\n",
		"parent " + parentHex + "\ntree " + treeHex + "\n\n",
		"tree zzz\n\n",
		"",
		"tree " + treeHex,
		"tree " + treeHex + "\ncommitter <> 9999999999999999999 +9999\n\nx",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.CommitObject)
		if _, err := obj.Write(b); err != nil {
			t.Fatal(err)
		}
		var want object.Commit
		wantErr := want.Decode(obj)
		got, err := parseCommit(b)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: ours %v, go-git %v", b, err, wantErr)
		}
		if err != nil {
			return
		}
		if got.tree != want.TreeHash || !slices.Equal(got.parents, want.ParentHashes) || got.message != want.Message {
			t.Fatalf("%q: ours tree %s parents %v message %q; go-git %s %v %q", b, got.tree, got.parents, got.message, want.TreeHash, want.ParentHashes, want.Message)
		}
		if !got.committer.Equal(want.Committer.When) || got.committer.Format("-0700") != want.Committer.When.Format("-0700") {
			t.Fatalf("%q: ours committer %v, go-git %v", b, got.committer, want.Committer.When)
		}
	})
}

func FuzzReadTree(f *testing.F) {
	entry := func(mode, name string, fill byte) []byte {
		h := make([]byte, 20)
		for i := range h {
			h[i] = fill
		}
		return append([]byte(mode+" "+name+"\x00"), h...)
	}
	for _, seed := range [][]byte{
		append(entry("100644", "a.txt", 1), entry("40000", "dir", 2)...),
		entry("100755", "run.sh", 3),
		entry("120000", "link", 4),
		entry("160000", "sub", 5),
		entry("100664", "old-mode", 6),
		[]byte("100644 a\x00short"),
		[]byte("100644 \x00" + string(make([]byte, 20))),
		[]byte("999 x\x00" + string(make([]byte, 20))),
		{},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := memory.NewStorage()
		obj := s.NewEncodedObject()
		obj.SetType(plumbing.TreeObject)
		if w, err := obj.Writer(); err == nil {
			_, _ = w.Write(b)
			_ = w.Close()
		}
		h, err := s.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		var want object.Tree
		wantErr := want.Decode(obj)
		got, err := readTree(s, h)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: ours %v, go-git %v", b, err, wantErr)
		}
		if err != nil {
			return
		}
		if len(got) != len(want.Entries) {
			t.Fatalf("%q: ours %d entries, go-git %d", b, len(got), len(want.Entries))
		}
		for i, e := range want.Entries {
			if got[i].name != e.Name || got[i].mode != e.Mode || got[i].hash != e.Hash {
				t.Fatalf("%q: entry %d: ours %+v, go-git %+v", b, i, got[i], e)
			}
		}
	})
}
