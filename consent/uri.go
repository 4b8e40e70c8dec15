package consent

import (
	"fmt"
	"net/url"
	"strings"
)

// pathByteVerbatim reports whether c may appear unencoded in a URI path that
// PathToURI writes: an RFC 3986 unreserved character, '/', or a sub-delim or
// pchar punctuation mark with no special meaning inside a path. '%', '?',
// '#', space, controls and every non-ASCII byte are encoded.
func pathByteVerbatim(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0
}

// URIToPath parses a file:// URI back into an absolute path. It fails for
// anything that is not an absolute file URI: another scheme, the opaque
// form "file:relative", a user or port, a host other than empty or
// "localhost", a query or fragment (a literal '?' or '#'), raw control
// characters, malformed percent escapes, and a decoded path that is not
// absolute or holds NUL.
//
// The URI is split by net/url and its path decoded by url.PathUnescape (so
// '+' stays '+'). The scheme and "localhost" match case-insensitively, and
// the authority-less form "file:/path" of RFC 8089 is accepted. The result
// is not cleaned: for every absolute path p without NUL,
// URIToPath(PathToURI(p)) == p. It never panics, whatever the input.
func URIToPath(uri string) (string, error) {
	fail := func(why string) (string, error) {
		return "", fmt.Errorf("consent: uri %q: %s", uri, why)
	}
	if strings.ContainsAny(uri, "?#") {
		return fail("has a query or fragment")
	}
	u, err := url.Parse(uri)
	if err != nil {
		// url.Error repeats the URI verbatim; say why without it.
		var why = "malformed"
		if ue, ok := err.(*url.Error); ok {
			why = ue.Err.Error()
		}
		return fail(why)
	}
	switch {
	case u.Scheme != "file": // url.Parse lower-cases the scheme
		return fail("not a file: URI")
	case u.Opaque != "":
		return fail("path is not absolute")
	case u.User != nil:
		return fail("has user information")
	case u.Host != "" && !strings.EqualFold(u.Host, "localhost"):
		return fail(fmt.Sprintf("host %q is not local", u.Host))
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return fail("has a query or fragment")
	}
	path, err := url.PathUnescape(u.EscapedPath())
	if err != nil {
		return fail(err.Error())
	}
	if !strings.HasPrefix(path, "/") {
		return fail("path is not absolute")
	}
	if strings.IndexByte(path, 0) >= 0 {
		return fail("path contains a NUL byte")
	}
	return path, nil
}
