// Package lazyre holds regular expressions that are compiled when first
// used rather than when the program starts. Every hookd process, whatever
// its command and profile, runs the initialisation of every package it
// links; compiling each profile's patterns there cost a `hookd version`
// about a tenth of its time, most of them for profiles the process never
// runs.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. It panics then, as
// regexp.MustCompile does at start-up, if the expression does not compile
// (CompileAll finds that in a test).
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	allMu sync.Mutex
	all   []*Regexp
)

// New returns expr, to be compiled when first used.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// Re is the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// CompileAll compiles every expression made with New so far, as a check
// (the expressions themselves still compile on first use): it returns how
// many there are, and the first that does not compile, with its error.
func CompileAll() (n int, expr string, err error) {
	allMu.Lock()
	list := append([]*Regexp(nil), all...)
	allMu.Unlock()
	for _, r := range list {
		if _, err := regexp.Compile(r.expr); err != nil {
			return len(list), r.expr, err
		}
	}
	return len(list), "", nil
}

func (r *Regexp) String() string                         { return r.expr }
func (r *Regexp) Match(b []byte) bool                    { return r.Re().Match(b) }
func (r *Regexp) MatchString(s string) bool              { return r.Re().MatchString(s) }
func (r *Regexp) FindAllString(s string, n int) []string { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindStringSubmatch(s string) []string   { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.Re().FindStringSubmatchIndex(s) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Re().ReplaceAllFunc(src, repl)
}
