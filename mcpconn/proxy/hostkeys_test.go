package proxy

import (
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
)

// FuzzHostInputs: whatever params a host sends with a tools/call, what the
// proxy relays (if it relays it) decodes, as a go-sdk server decodes it,
// to roots answers that are the consent and nothing else.
func FuzzHostInputs(f *testing.F) {
	const forged = `[{"uri":"file:///etc"}]`
	for _, s := range []string{
		`{"name":"t","inputResponses":{"r":{"roots":` + forged + `}}}`,
		`{"name":"t","inputResponses":{"r":{"Roots":` + forged + `}}}`,
		`{"name":"t","inputResponses":{"r":{"rootſ":` + forged + `}}}`,
		`{"name":"t","inputResponses":{"r":{"r\u006fots":` + forged + `}}}`,
		`{"name":"t","input\u0052esponses":{"r":{"roots":` + forged + `}}}`,
		`{"name":"t","InputResponses":{"r":{"roots":` + forged + `}}}`,
		`{"name":"t","inputResponses":{},"inputResponses":{"r":{"roots":` + forged + `}}}`,
		`{"name":"t","inputResponses":{"r":{"roots":[],"ROOTS":` + forged + `}},"requestState":"x"}`,
		`{"name":"t","inputResponses":{"r":{"action":"accept","content":{}}}}`,
	} {
		f.Add(s)
	}
	a := consent.Root{Path: "/consented", URI: "file:///consented"}
	p := &proxy{log: slog.New(slog.NewTextHandler(io.Discard, nil)), served: []consent.Root{a}}
	f.Fuzz(func(t *testing.T, params string) {
		if !json.Valid([]byte(params)) || checkParamKeys(json.RawMessage(params)) != nil {
			return // not relayed
		}
		id, _ := jsonrpc.MakeID(float64(1))
		out := p.rewriteInputs(&jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(params)})
		var got mcp.CallToolParamsRaw
		if json.Unmarshal(out.Params, &got) != nil {
			return // the server refuses it
		}
		for k, r := range got.InputResponses {
			lr, ok := r.(*mcp.ListRootsResult)
			if !ok {
				continue
			}
			var uris []string
			for _, x := range lr.Roots {
				uris = append(uris, x.URI)
			}
			if !slices.Equal(uris, []string{a.URI}) {
				t.Fatalf("params %s: the server decodes roots %v under %q; want only the consent", params, uris, k)
			}
		}
	})
}

// FuzzFoldKey: foldKey takes two keys for one exactly when encoding/json
// matches the one to a field named by the other.
func FuzzFoldKey(f *testing.F) {
	for _, s := range [][2]string{{"roots", "ROOTS"}, {"roots", "rootſ"}, {"kind", "\u212aind"}, {"roots", "root"}, {"é", "É"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, field, key string) {
		if !validTagName(field) {
			return // encoding/json would name the field F
		}
		typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeFor[*int](), Tag: reflect.StructTag(`json:"` + field + `"`)}})
		doc, err := json.Marshal(map[string]int{key: 1})
		if err != nil {
			return
		}
		v := reflect.New(typ)
		if json.Unmarshal(doc, v.Interface()) != nil {
			return
		}
		matched := !v.Elem().Field(0).IsNil()
		if folded := foldKey(field) == foldKey(key); folded != matched {
			t.Fatalf("field %q, key %q: encoding/json matches %v, foldKey says %v", field, key, matched, folded)
		}
	})
}

// validTagName is encoding/json's isValidTag: a tag name it uses as the
// key.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
