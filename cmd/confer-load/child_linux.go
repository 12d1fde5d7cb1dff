package main

import "syscall"

// childAttr makes the bare handler's process die with this one.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
