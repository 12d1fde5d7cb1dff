// Command bare-forwarder serves the bare pion forwarder (package
// bareforward) on a loopback address for the media benchmark of
// docs/benchmarks.md "Media".
//
//	go run ./cmd/bare-forwarder --listen 127.0.0.1:8091
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/confer-platform/confer/bench/bareforward"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8091", "HTTP address of the WHIP and WHEP endpoints")
	loopback := flag.Bool("loopback", true, "offer loopback ICE candidates only")
	flag.Parse()
	log.Printf("bare-forwarder: WHIP http://%s/rtc/whip/{room}, WHEP http://%s/rtc/whep/{room}", *listen, *listen)
	log.Fatal(http.ListenAndServe(*listen, bareforward.New(*loopback)))
}
