//go:build !unix

package plugins

import "errors"

func mkfifo(string) error { return errors.New("FIFOs need a unix system") }
