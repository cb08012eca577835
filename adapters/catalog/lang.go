package catalog

import (
	"fmt"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// A Lang is a language the catalogue speaks.
type Lang string

// The languages, English the default.
const (
	English Lang = "en"
	German  Lang = "de"
	French  Lang = "fr"
	Italian Lang = "it"
)

// Langs are the languages, in the order a language menu lists them.
var Langs = []Lang{English, German, French, Italian}

// Name is the language's name in itself, for a language menu.
func (l Lang) Name() string {
	switch l {
	case German:
		return "Deutsch"
	case French:
		return "Français"
	case Italian:
		return "Italiano"
	}
	return "English"
}

// Tag is l as a BCP 47 tag.
func (l Lang) Tag() language.Tag {
	switch l {
	case German:
		return language.German
	case French:
		return language.French
	case Italian:
		return language.Italian
	}
	return language.English
}

// ParseLang returns the language named s ("en", "de", "fr" or "it", in
// any case), or an error that lists them.
func ParseLang(s string) (Lang, error) {
	for _, l := range Langs {
		if strings.EqualFold(s, string(l)) {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown language %q: use en, de, fr or it", s)
}

// matcher matches a request's languages to the catalogue's, English
// first so that it is the fallback. It is built on first use: building
// it at package initialisation cost every process start, the validate
// command's included, which never negotiates (docs/decisions/0044).
var matcher = sync.OnceValue(func() language.Matcher {
	return language.NewMatcher([]language.Tag{language.English, language.German, language.French, language.Italian})
})

// Negotiate returns the language of the catalogue that best suits an
// Accept-Language header (RFC 9110, 12.5.4: its q-values weigh the
// choices; de-CH is German): English when the header is empty, cannot be
// parsed, or asks only for languages the catalogue does not speak.
func Negotiate(acceptLanguage string) Lang {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return English
	}
	_, i, conf := matcher().Match(tags...)
	if conf == language.No {
		return English
	}
	return Langs[i]
}
