//go:build !unix

package soong

import "errors"

func mkfifo(string) error { return errors.New("FIFOs need a unix system") }
