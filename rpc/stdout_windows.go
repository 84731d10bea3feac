package rpc

import "os"

// ClaimStdout returns stdout for the protocol and points os.Stdout at stderr so
// stray prints from Go code cannot corrupt a frame.
func ClaimStdout() (*os.File, error) {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out, nil
}
