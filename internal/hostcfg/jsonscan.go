package hostcfg

// A walk over standard JSON that json.Valid has accepted: it finds where
// members and values are without building anything, so that only the
// servers objects of a large file are parsed.

import (
	"bytes"
	"encoding/json"
)

// jsonSpace is the index of the first byte at or after i that is not JSON
// white space.
func jsonSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonStringEnd is the index just after the string that starts (with its
// quote) at i.
func jsonStringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// jsonValueEnd is the index just after the value that starts at i.
func jsonValueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return jsonStringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = jsonStringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}

// jsonEach calls fn with each member of the object at b[obj] ('{'): its
// name as written (quotes and escapes included) and its value's range.
func jsonEach(b []byte, obj int, fn func(name []byte, start, end int)) {
	i := jsonSpace(b, obj+1)
	for i < len(b) && b[i] == '"' {
		nameEnd := jsonStringEnd(b, i)
		name := b[i:nameEnd]
		i = jsonSpace(b, nameEnd)
		if i >= len(b) || b[i] != ':' {
			return
		}
		i = jsonSpace(b, i+1)
		if i >= len(b) {
			return
		}
		end := jsonValueEnd(b, i)
		fn(name, i, end)
		i = jsonSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonSpace(b, i+1)
		}
	}
}

// jsonLast is the range of the value of the object's last member named
// key (a later duplicate wins, as with JSON.parse).
func jsonLast(b []byte, obj int, key string) (start, end int, ok bool) {
	jsonEach(b, obj, func(name []byte, s, e int) {
		if jsonNameIs(name, key) {
			start, end, ok = s, e, true
		}
	})
	return start, end, ok
}

// jsonCount is how many members of the object at b[obj] are named key.
func jsonCount(b []byte, obj int, key string) int {
	n := 0
	jsonEach(b, obj, func(name []byte, _, _ int) {
		if jsonNameIs(name, key) {
			n++
		}
	})
	return n
}

// jsonNameIs reports whether the member name as written is key.
func jsonNameIs(name []byte, key string) bool {
	if bytes.IndexByte(name, '\\') < 0 {
		return len(name) == len(key)+2 && string(name[1:len(name)-1]) == key
	}
	return jsonKey(name) == key
}

// jsonKey is the value of a member name as written.
func jsonKey(name []byte) string {
	if bytes.IndexByte(name, '\\') < 0 && len(name) >= 2 {
		return string(name[1 : len(name)-1])
	}
	var s string
	_ = json.Unmarshal(name, &s) // valid: json.Valid read it
	return s
}
