//go:build !linux

package plugins

import "os"

// cacheSupported: the load cache is kept on Linux only (cache.go).
const cacheSupported = false

func lstamp(string) (stamp, error)     { return stamp{}, os.ErrNotExist }
func isNotDir(error) bool              { return false }
func isDirMode(uint32) bool            { return false }
func isRegularMode(uint32) bool        { return false }
func resolveDir(string) (string, bool) { return "", false }
func localFS(string) bool              { return false }

type anchors struct{}

func (*anchors) open(string) (int, bool) { return -1, false }
func (*anchors) close()                  {}

func lstampAt(int, string, string) (stamp, error) { return stamp{}, os.ErrNotExist }
func fileIdentity(os.FileInfo) string             { return "" }
