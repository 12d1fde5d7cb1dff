package main

import (
	"net"
	"strings"
	"testing"
)

// A connection error names the program once (issue 22 item 5).
func TestTransportErrorNamesProgramOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := newCLI(t)
	r := c.run("login", "--url", "http://"+addr, "--key", "k", "--user", "admin")
	if r.code == 0 || !strings.HasPrefix(r.err, "confer: ") || strings.Contains(r.err, "confer: confer:") {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
}
