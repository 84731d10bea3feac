// Package rpc is hookd's JSON-RPC 2.0 sidecar: the server that a host spawns
// and talks to over stdin and stdout (see PROTOCOL.md).
//
// The connection is github.com/sourcegraph/jsonrpc2's Conn, but over our own
// ObjectStream (stream.go) rather than the library's codecs. The library
// closes the whole connection, silently, on the first frame or message it
// cannot parse; the protocol instead promises that malformed input never
// kills hookd. Stream therefore owns everything below the Conn: LSP and
// NDJSON framing, resynchronising after bad headers, size limits that never
// allocate an announced length, the -32700/-32600/-32602 replies for messages
// the library would choke on, ids the library cannot represent, and draining
// in-flight replies at stdin EOF.
package rpc
