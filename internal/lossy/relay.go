// Package lossy is an in-process UDP relay that loses, delays and
// reorders datagrams, put between a test's clients and a node (issue 35:
// the media tests also run over loss). It depends on nothing of Confer's,
// so the SFU's own tests use it as well as internal/rtctest's clients.
// Imported by tests only.
package lossy

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// Relay is an in-process UDP relay between test clients and a node's
// ICE port that loses, delays and so reorders packets, as a real network
// does (issue 35: the recording, playback and media tests also run over
// loss). Each client address gets its own socket towards the node, so the
// node sees one remote address per client. A pion client goes through it
// with rtctest.OfferThrough (or Offer and Answer here); anything else that speaks UDP (a SIP phone's RTP,
// say) can be pointed at Addr with Target set to the real destination.
type Relay struct {
	front  *net.UDPConn
	opts   Options
	mu     sync.Mutex
	target *net.UDPAddr
	backs  map[string]*net.UDPConn // client address: its socket towards target
	rnd    *rand.Rand
	done   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup

	// Sent counts the datagrams that entered the relay, Lost those it
	// dropped (both directions).
	Sent, Lost int64
}

// Options shape the relay's network.
type Options struct {
	Loss   float64       // share of datagrams dropped in each direction, e.g. 0.03
	Delay  time.Duration // fixed one-way delay
	Jitter time.Duration // a random extra delay up to Jitter: packets overtake each other
	Seed   uint64        // the loss pattern's seed (0: 1)
}

// Network is the network of issue 35's media tests: 3 % loss and up to
// 20 ms of jitter each way.
var Network = Options{Loss: 0.03, Delay: 2 * time.Millisecond, Jitter: 20 * time.Millisecond}

// New starts a relay on a loopback port; it stops when the test ends.
// Its target is set by Answer (or SetTarget).
func New(t testing.TB, o Options) *Relay {
	t.Helper()
	front, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	r := &Relay{front: front, opts: o, backs: map[string]*net.UDPConn{}, rnd: rand.New(rand.NewPCG(o.Seed, o.Seed)),
		done: make(chan struct{})}
	r.wg.Add(1)
	go r.fromClients()
	t.Cleanup(r.Close)
	return r
}

// Addr is where clients send.
func (r *Relay) Addr() *net.UDPAddr { return r.front.LocalAddr().(*net.UDPAddr) }

// SetTarget sets where the clients' datagrams go.
func (r *Relay) SetTarget(a *net.UDPAddr) {
	r.mu.Lock()
	r.target = a
	r.mu.Unlock()
}

// Stats returns the datagrams relayed and lost so far.
func (r *Relay) Stats() (sent, lost int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Sent, r.Lost
}

// Close stops the relay.
func (r *Relay) Close() {
	r.once.Do(func() {
		close(r.done)
		r.front.Close()
		r.mu.Lock()
		for _, b := range r.backs {
			b.Close()
		}
		r.mu.Unlock()
		r.wg.Wait()
	})
}

// fromClients reads the clients' datagrams and passes them on.
func (r *Relay) fromClients() {
	defer r.wg.Done()
	buf := make([]byte, 1600)
	for {
		n, from, err := r.front.ReadFromUDP(buf)
		if err != nil {
			return
		}
		back, target := r.backFor(from)
		if back == nil || target == nil {
			continue
		}
		r.pass(append([]byte(nil), buf[:n]...), func(b []byte) { _, _ = back.WriteToUDP(b, target) })
	}
}

// backFor returns the socket towards the target of one client address.
func (r *Relay) backFor(client *net.UDPAddr) (*net.UDPConn, *net.UDPAddr) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.backs[client.String()]; b != nil || r.target == nil {
		return b, r.target
	}
	b, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, nil
	}
	r.backs[client.String()] = b
	r.wg.Add(1)
	go func() { // the node's datagrams back to this client
		defer r.wg.Done()
		buf := make([]byte, 1600)
		for {
			n, _, err := b.ReadFromUDP(buf)
			if err != nil {
				return
			}
			r.pass(append([]byte(nil), buf[:n]...), func(p []byte) { _, _ = r.front.WriteToUDP(p, client) })
		}
	}()
	return b, r.target
}

// pass drops a datagram or sends it after the delay and a random jitter.
func (r *Relay) pass(b []byte, send func([]byte)) {
	r.mu.Lock()
	r.Sent++
	lost := r.rnd.Float64() < r.opts.Loss
	if lost {
		r.Lost++
	}
	var jitter time.Duration
	if r.opts.Jitter > 0 {
		jitter = time.Duration(r.rnd.Int64N(int64(r.opts.Jitter)))
	}
	r.mu.Unlock()
	if lost {
		return
	}
	time.AfterFunc(r.opts.Delay+jitter, func() {
		select {
		case <-r.done:
		default:
			send(b)
		}
	})
}

// Offer removes an SDP's ICE candidates: the node learns the
// client only from its checks through the relay (peer-reflexive, RFC
// 8445 section 7.3.1.3), never by a direct path.
func Offer(sdp string) string {
	var out []string
	for _, l := range strings.SplitAfter(sdp, "\n") {
		if !strings.HasPrefix(l, "a=candidate:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// Answer replaces an answer's candidates with one host candidate
// at the relay, and aims the relay at the node's loopback UDP candidate
// (else its first UDP candidate).
func (r *Relay) Answer(sdp string) (string, error) {
	var target *net.UDPAddr
	for _, l := range strings.Split(sdp, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "a=candidate:"))
		if !strings.HasPrefix(l, "a=candidate:") || len(f) < 8 || !strings.EqualFold(f[2], "udp") || f[7] != "host" {
			continue
		}
		a, err := net.ResolveUDPAddr("udp4", net.JoinHostPort(f[4], f[5]))
		if err != nil {
			continue
		}
		if target == nil || a.IP.IsLoopback() && !target.IP.IsLoopback() {
			target = a
		}
	}
	if target == nil {
		return "", fmt.Errorf("lossy: the answer has no UDP host candidate to relay to")
	}
	r.SetTarget(target)
	cand := fmt.Sprintf("a=candidate:1 1 udp 2130706431 %s %d typ host\r\n", r.Addr().IP, r.Addr().Port)
	var out []string
	placed := map[int]bool{} // m-section index: has the relay's candidate
	section := -1
	for _, l := range strings.SplitAfter(sdp, "\n") {
		if strings.HasPrefix(l, "m=") {
			section++
		}
		if strings.HasPrefix(l, "a=candidate:") {
			if !placed[section] {
				placed[section] = true
				out = append(out, cand)
			}
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, ""), nil
}
