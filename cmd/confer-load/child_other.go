//go:build !linux

package main

import "syscall"

// childAttr: only Linux has a parent-death signal; elsewhere the bare
// handler's process is killed by the stop function alone, and its CPU
// time (read from /proc) reads as 0.
func childAttr() *syscall.SysProcAttr { return nil }
