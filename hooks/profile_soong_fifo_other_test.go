//go:build !unix

package hooks

import "errors"

func mkfifo(string) error { return errors.New("FIFOs need a unix system") }
