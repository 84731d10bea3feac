// Package jsonrpcmsg reads and fills the JSON-RPC library's message type
// directly. The library hands its object stream (and a codec) one
// unexported struct to read into and to write, holding a *Request or a
// *Response; filling it with json.Unmarshal and writing it with its
// MarshalJSON costs several nested encoding/json passes, and the message
// that never needed them (a plain request read, a result written, a
// response read) can be done in one or none. The type is recognised by its
// layout, checked field by field against the library's exported types on
// first sight; a library whose message differs in any way is never viewed
// (Of returns nil), and the callers use the library's own codec.
package jsonrpcmsg

import (
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"
)

// Message is the layout the library's message type must have to be filled
// or read directly: its fields, in order, of the same types at the same
// offsets, named as these but for the case of the first letter.
type Message struct {
	Request  *jsonrpc2.Request
	Response *jsonrpc2.Response
}

// knownMessage is the pointer type, once recognised, of the library's
// message.
var knownMessage atomic.Pointer[reflect.Type]

// Of returns v as a Message when v is a non-nil pointer to the library's
// message type, and nil otherwise.
func Of(v any) *Message {
	t := reflect.TypeOf(v)
	if t == nil {
		return nil
	}
	if k := knownMessage.Load(); k == nil || *k != t {
		if !IsMessageType(t) {
			return nil
		}
		knownMessage.Store(&t)
	}
	p := reflect.ValueOf(v).UnsafePointer()
	if p == nil {
		return nil
	}
	return (*Message)(p)
}

// IsMessageType reports whether t is a pointer to a struct of the library's
// package laid out exactly as Message.
func IsMessageType(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer {
		return false
	}
	e := t.Elem()
	want := reflect.TypeFor[Message]()
	if e.Kind() != reflect.Struct || e.PkgPath() != reflect.TypeFor[jsonrpc2.Request]().PkgPath() ||
		e.NumField() != want.NumField() || e.Size() != want.Size() || e.Align() != want.Align() {
		return false
	}
	for i := range want.NumField() {
		f, w := e.Field(i), want.Field(i)
		if !strings.EqualFold(f.Name, w.Name) || f.Type != w.Type || f.Offset != w.Offset {
			return false
		}
	}
	return true
}
