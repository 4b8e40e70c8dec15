package proxy

// A host's params, read as the server will read them.
//
// The SDK (go-sdk v1.8.0, and any server decoding into Go structs with
// encoding/json) matches an object's keys to fields case-insensitively,
// with Unicode's simple folding — "InputResponses", "ROOTS" and "rootſ"
// (long s) are "inputResponses" and "roots" to it — and when two keys fold
// alike the last one wins. The proxy reads the same bytes into maps, whose
// keys match exactly. Wherever the two readings could differ, the proxy
// would check one thing and the server act on another: a host could hide
// roots of its own from the proxy and hand them to the server. So:
//
//   - a request whose params hold two keys that fold alike, or a key that
//     folds like a protocol key without being it, is refused
//     (checkParamKeys);
//   - an input response with a member that folds like "roots" is a roots
//     answer, as the SDK's probe (unmarshalInputResponse) takes it, and is
//     replaced by the consent (isRootsAnswer).
//
// Escaped spellings ("input\u0052esponses") need nothing more: both
// readings decode the escape before they compare.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// protocolKeys are the params members of the requests a host sends that
// the proxy reads or a server acts on, spelled as the protocol spells
// them.
var protocolKeys = []string{
	"_meta", "inputResponses", "requestState", // every request; MRTR retries
	"protocolVersion", "capabilities", "clientInfo", // initialize
	"name", "arguments", "uri", "cursor", // tools/call, prompts/get, resources/read, lists
	"requestId", "reason", // notifications/cancelled
}

// foldedProtocolKeys maps each protocol key's folded form to the key.
var foldedProtocolKeys = func() map[string]string {
	m := make(map[string]string, len(protocolKeys))
	for _, k := range protocolKeys {
		m[foldKey(k)] = k
	}
	return m
}()

// foldKey returns k folded as encoding/json folds a key to match it to a
// field (encoding/json's foldName): two keys fold alike exactly when
// encoding/json takes them for the same field.
func foldKey(k string) string {
	var b []byte
	for i := 0; i < len(k); {
		if c := k[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(k[i:])
		b = utf8.AppendRune(b, smallestFold(r))
		i += n
	}
	return string(b)
}

// smallestFold returns the smallest rune of r's fold set.
func smallestFold(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// objectKeys returns the keys of the JSON object raw in order, repeats
// included, with their escapes decoded; ok is false when raw is not an
// object.
func objectKeys(raw []byte) (keys []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, false
		}
	}
	return keys, true
}

// checkParamKeys refuses params that a server would read otherwise than
// the proxy: two keys that fold alike (encoding/json keeps the last, a map
// lookup finds the exact one), or a protocol key in another spelling.
// Params that are not an object pass: the server refuses them itself.
func checkParamKeys(params json.RawMessage) error {
	if len(params) == 0 {
		return nil
	}
	keys, ok := objectKeys(params)
	if !ok {
		return nil
	}
	seen := make(map[string]string, len(keys))
	for _, k := range keys {
		f := foldKey(k)
		if prev, dup := seen[f]; dup {
			if prev == k {
				return fmt.Errorf("the params hold %q twice", k)
			}
			return fmt.Errorf("the params hold %q and %q, which a server reads as one key", prev, k)
		}
		seen[f] = k
		if want, known := foldedProtocolKeys[f]; known && k != want {
			return fmt.Errorf("the params hold %q, which a server reads as %q: spell it as the protocol does", k, want)
		}
	}
	return nil
}

// isRootsAnswer reports whether an input response would be decoded by a
// server as a roots answer (a ListRootsResult): an object with a member
// whose key folds like "roots".
func isRootsAnswer(v json.RawMessage) bool {
	keys, ok := objectKeys(v)
	if !ok {
		return false
	}
	for _, k := range keys {
		if foldKey(k) == "ROOTS" {
			return true
		}
	}
	return false
}
