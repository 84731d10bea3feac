package jsonrpcmsg

import (
	"context"
	"io"
	"reflect"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// LibraryType is the pointer type of the library's own message, as a
// jsonrpc2.Conn hands it to its object stream, for tests that compare what
// the library makes of a message with what a fast path makes of it.
var LibraryType = sync.OnceValue(func() reflect.Type {
	s := &typeStream{got: make(chan reflect.Type, 1), done: make(chan struct{})}
	conn := jsonrpc2.NewConn(context.Background(), s, jsonrpc2.HandlerWithError(
		func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	typ := <-s.got
	conn.Close()
	<-conn.DisconnectNotify()
	return typ
})

// typeStream is an object stream that only records the type the library
// reads its messages into.
type typeStream struct {
	got  chan reflect.Type
	done chan struct{}
	once sync.Once
}

func (s *typeStream) ReadObject(v any) error {
	select {
	case s.got <- reflect.TypeOf(v):
	default:
	}
	<-s.done
	return io.EOF
}

func (s *typeStream) WriteObject(any) error { return nil }

func (s *typeStream) Close() error {
	s.once.Do(func() { close(s.done) })
	return nil
}
