package picker

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bonuses and penalties of github.com/sahilm/fuzzy (v0.1.3), whose
// ranking score reproduces.
const (
	firstCharMatchBonus            = 10
	matchFollowingSeparatorBonus   = 20
	camelCaseMatchBonus            = 20
	adjacentMatchBonus             = 5
	unmatchedLeadingCharPenalty    = -5
	maxUnmatchedLeadingCharPenalty = -15
)

// score is sahilm/fuzzy's score of pattern against s, and whether every
// rune of pattern matched, computed as fuzzy.FindNoSort does for one
// string but without allocating: fuzzy keeps every match's offsets (a
// slice each, 11 MB of garbage for a one-letter query over 50,000 rows),
// while the filter keeps only the score and finds the offsets again for
// the rows drawn (positions). TestScoreAgreesWithSahilmFuzzy holds the two
// to the same results.
func score(pattern []rune, s string) (int, bool) {
	if len(pattern) == 0 {
		return 0, false
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i] // fuzzy stops at the first NUL
	}
	total := 0
	matched := 0       // pattern runes matched so far
	lastMatch := -1    // offset of the last matched rune
	patternIndex := 0  // the pattern rune looked for
	bestScore := -1    // the best score of that rune so far
	matchedIndex := -1 // where it scored best
	currAdjacent := 0
	var last rune
	lastIndex := 0
	nextc, nextSize := utf8.DecodeRuneInString(s)
	var candidate rune
	var candidateSize int
	for j := 0; j < len(s); j += candidateSize {
		candidate, candidateSize = nextc, nextSize
		if equalFold(candidate, pattern[patternIndex]) {
			sc := 0
			if j == 0 {
				sc += firstCharMatchBonus
			}
			if unicode.IsLower(last) && unicode.IsUpper(candidate) {
				sc += camelCaseMatchBonus
			}
			if j != 0 && isSeparator(last) {
				sc += matchFollowingSeparatorBonus
			}
			if matched > 0 {
				bonus := 0
				if lastMatch == lastIndex {
					bonus = currAdjacent*2 + adjacentMatchBonus
				}
				sc += bonus
				currAdjacent += bonus
			}
			if sc > bestScore {
				bestScore = sc
				matchedIndex = j
			}
		}
		var nextp rune
		if patternIndex < len(pattern)-1 {
			nextp = pattern[patternIndex+1]
		}
		if j+candidateSize < len(s) {
			if s[j+candidateSize] < utf8.RuneSelf {
				nextc, nextSize = rune(s[j+candidateSize]), 1
			} else {
				nextc, nextSize = utf8.DecodeRuneInString(s[j+candidateSize:])
			}
		} else {
			nextc, nextSize = 0, 0
		}
		if equalFold(nextp, nextc) || nextc == 0 {
			if matchedIndex > -1 {
				if matched == 0 {
					bestScore += max(matchedIndex*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
				}
				total += bestScore
				lastMatch = matchedIndex
				matched++
				bestScore = -1
				patternIndex++
			}
		}
		lastIndex = j
		last = candidate
	}
	total += matched - len(s)
	return total, matched == len(pattern)
}

// equalFold is fuzzy's (strings.EqualFold's) comparison of two runes.
func equalFold(tr, sr rune) bool {
	if tr == sr {
		return true
	}
	if tr < sr {
		tr, sr = sr, tr
	}
	if tr < utf8.RuneSelf {
		return 'A' <= sr && sr <= 'Z' && tr == sr+'a'-'A'
	}
	r := unicode.SimpleFold(sr)
	for r != sr && r < tr {
		r = unicode.SimpleFold(r)
	}
	return r == tr
}

func isSeparator(r rune) bool {
	switch r {
	case '/', '-', '_', ' ', '.', '\\':
		return true
	}
	return false
}
