package redact

import (
	"slices"
	"strings"
)

// secretWords are the parts of a name that make it a secret's wherever
// they stand in a word: GITHUB_TOKEN, clientSecret, DB_PASSWORD,
// AUTHORIZATION, OAUTH_CLIENT_ID.
var secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH", "COOKIE", "BEARER"}

// notSecretLast are last words that make a name a secret's place or
// kind, not the secret: TOKEN_FILE=/path, bearer_token_env_var = "NAME",
// AUTH_TYPE=oauth, SSH_AUTH_SOCK=/run/….
var notSecretLast = []string{"FILE", "FILES", "PATH", "DIR", "VAR", "ENV", "URL", "URI", "NAME", "TYPE", "MODE", "SOCK"}

// SecretName reports whether name, of an environment variable, a setting
// or a flag (leading dashes ignored), looks like it holds a secret. The
// name is cut into words at '_', '-', '.', spaces and camelCase humps
// (apiKey → API KEY), and is a secret's when
//
//   - a word holds TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE,
//     CREDENTIAL, AUTH (not as in AUTHOR or AUTHORITY), COOKIE or BEARER;
//   - a word is or ends in KEY (API_KEY, APIKEY, X-Api-Key, ACCESS_KEY_ID;
//     not KEYS, KEYBOARD), or is or ends in PASS (DB_PASS, SMTPPASS; not
//     BYPASS or COMPASS), PWD after another word (MYSQL_PWD, not PWD: that
//     is the current folder) or PAT (GITHUB_PAT);
//
// unless its last word says it names a place or a kind (…_FILE, …_PATH,
// …_DIR, …_VAR, …_ENV, …_URL, …_URI, …_NAME, …_TYPE, …_MODE, …_SOCK), it
// counts tokens (max_tokens: the word TOKENS), or it is a negated flag
// (--no-auth).
//
// -p is not a secret's flag: it is a port, a profile or a path as often as
// a password (mysql -p), and a port or path tells servers apart.
func SecretName(name string) bool {
	words := nameWords(name)
	if len(words) == 0 || words[0] == "NO" || slices.Contains(notSecretLast, words[len(words)-1]) {
		return false
	}
	for i, w := range words {
		switch {
		case w == "TOKENS" || w == "KEYS":
			continue
		case strings.HasSuffix(w, "KEY"),
			strings.HasSuffix(w, "PASS") && w != "BYPASS" && w != "COMPASS" && w != "SURPASS",
			w == "PWD" && i > 0,
			w == "PAT":
			return true
		}
		for _, s := range secretWords {
			if j := strings.Index(w, s); j >= 0 && (s != "AUTH" || !isAuthor(w[j:])) {
				return true
			}
		}
	}
	return false
}

// isAuthor reports whether w, starting with AUTH, is AUTHOR… but not
// AUTHORIZ… (AUTHOR, AUTHORS, AUTHORITY name no secret; AUTHORIZATION
// does).
func isAuthor(w string) bool {
	return strings.HasPrefix(w, "AUTHOR") && !strings.HasPrefix(w, "AUTHORIZ")
}

// nameWords cuts name into upper-case words.
func nameWords(name string) []string {
	name = strings.TrimLeft(name, "-")
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '\t':
			flush()
			continue
		case isUpper(r) && i > 0 && (isLower(rs[i-1]) || isDigitRune(rs[i-1])):
			flush() // apiKey → api Key
		case isUpper(r) && i > 0 && isUpper(rs[i-1]) && i+1 < len(rs) && isLower(rs[i+1]):
			flush() // APIKey → API Key
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func isUpper(r rune) bool     { return 'A' <= r && r <= 'Z' }
func isLower(r rune) bool     { return 'a' <= r && r <= 'z' }
func isDigitRune(r rune) bool { return '0' <= r && r <= '9' }
