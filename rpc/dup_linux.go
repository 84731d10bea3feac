package rpc

import "syscall"

// dupOnto makes newfd a copy of oldfd. Linux on arm64 (and riscv64, loong64)
// has no dup2 system call, so syscall.Dup2 does not exist there; dup3 is on
// every Linux architecture.
func dupOnto(oldfd, newfd int) error { return syscall.Dup3(oldfd, newfd, 0) }
