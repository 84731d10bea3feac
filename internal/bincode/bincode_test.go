package bincode

import (
	"math"
	"testing"
)

// What a Writer writes a Reader gives back, in order; cut anywhere, the
// Reader marks it Bad.
func TestReaderGivesBackWhatWriterWrote(t *testing.T) {
	w := &Writer{}
	w.Num(math.MaxUint64)
	w.Int(math.MinInt64)
	w.Int(-1)
	w.Str("$(echo hi) \"quoted\"")
	w.Bytes(nil)
	w.Bytes([]byte{0, 1, 2})
	w.Num(2)
	w.Flag(true)
	w.Flag(false)
	read := func(b []byte) (*Reader, []any) {
		r := &Reader{B: b}
		return r, []any{r.Num(), r.Int(), r.Int(), r.Str(), string(r.Raw()), string(r.Raw()), r.Count(1), r.Flag(), r.Flag()}
	}
	r, got := read(w.B)
	want := []any{uint64(math.MaxUint64), int64(math.MinInt64), int64(-1), "$(echo hi) \"quoted\"", "", "\x00\x01\x02", 2, true, false}
	if r.Bad || len(r.B) != 0 {
		t.Errorf("bad %v, %d bytes left", r.Bad, len(r.B))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d: %#v, want %#v", i, got[i], want[i])
		}
	}
	for n := range len(w.B) {
		if r, _ := read(w.B[:n]); !r.Bad {
			t.Errorf("cut to %d of %d bytes: not Bad", n, len(w.B))
		}
	}
}

// A count that the bytes left could not hold, and a flag other than 0 or
// 1, are Bad, and every read after gives a zero value.
func TestReaderRefusesImpossibleValues(t *testing.T) {
	w := &Writer{}
	w.Num(3)
	w.Flag(true)
	w.Flag(true)
	if r := (&Reader{B: w.B}); r.Count(1) != 0 || !r.Bad || r.Flag() {
		t.Error("a count of 3 with 2 bytes after it was taken")
	}
	if r := (&Reader{B: []byte{2, 1}}); r.Flag() || !r.Bad || r.Num() != 0 {
		t.Error("a flag of 2 was taken, or a read after it was not zero")
	}
}
