package rpc

import "os"

// Stdin returns the protocol's input, os.Stdin.
func Stdin() *os.File { return os.Stdin }

// RestoreBlocking does nothing on Windows, where Stdin changes no mode.
func RestoreBlocking() {}
