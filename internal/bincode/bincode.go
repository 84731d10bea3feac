// Package bincode is the small binary layout hookd's caches are written in:
// numbers as varints, strings and byte strings as a length and their bytes,
// flags as 0 or 1. A Reader stops at the first problem (Bad) and gives zero
// values from then on, so a caller checks once, at the end of a record.
package bincode

import (
	"encoding/binary"
	"unsafe"
)

// Writer appends to B.
type Writer struct{ B []byte }

// Num appends an unsigned number.
func (w *Writer) Num(n uint64) { w.B = binary.AppendUvarint(w.B, n) }

// Int appends a signed number.
func (w *Writer) Int(n int64) { w.B = binary.AppendVarint(w.B, n) }

// Str appends a string.
func (w *Writer) Str(s string) { w.Num(uint64(len(s))); w.B = append(w.B, s...) }

// Bytes appends a byte string.
func (w *Writer) Bytes(p []byte) { w.Num(uint64(len(p))); w.B = append(w.B, p...) }

// Flag appends a boolean.
func (w *Writer) Flag(v bool) {
	if v {
		w.Num(1)
	} else {
		w.Num(0)
	}
}

// Reader reads what a Writer wrote, from B. The strings and byte strings it
// returns share B's bytes, which the caller must therefore never change
// while anything read from them is in use.
type Reader struct {
	B   []byte
	Bad bool
}

// Num reads an unsigned number.
func (r *Reader) Num() uint64 { return varint(r, binary.Uvarint) }

// Int reads a signed number.
func (r *Reader) Int() int64 { return varint(r, binary.Varint) }

// varint reads one number that decode takes from the front of B.
func varint[T uint64 | int64](r *Reader, decode func([]byte) (T, int)) T {
	if r.Bad {
		return 0
	}
	n, k := decode(r.B)
	if k <= 0 {
		r.Bad = true
		return 0
	}
	r.B = r.B[k:]
	return n
}

// Raw reads a byte string (its capacity ends with it).
func (r *Reader) Raw() []byte {
	n := r.Num()
	if r.Bad || n > uint64(len(r.B)) {
		r.Bad = true
		return nil
	}
	p := r.B[:n:n]
	r.B = r.B[n:]
	return p
}

// Str reads a string, in place in B.
func (r *Reader) Str() string {
	p := r.Raw()
	if len(p) == 0 {
		return ""
	}
	return unsafe.String(&p[0], len(p))
}

// Flag reads a boolean; anything but 0 or 1 is Bad.
func (r *Reader) Flag() bool {
	switch r.Num() {
	case 0:
		return false
	case 1:
		return true
	}
	r.Bad = true
	return false
}

// Count reads a number of records that each take at least min bytes, so a
// damaged count cannot make the caller allocate more than B could hold.
func (r *Reader) Count(min int) int {
	n := r.Num()
	if r.Bad || n > uint64(len(r.B)/min) {
		r.Bad = true
		return 0
	}
	return int(n)
}
