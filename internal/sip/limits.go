package sip

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Limits per source address (issue 38; docs/sip.md "Limits per
// address"): anyone who reaches the SIP port may send, so what one
// address may cost is bounded before any message is parsed.
//
//   - Messages: a token bucket per address (Config.RatePerAddress a
//     second, bursts of twice that). Over UDP a datagram beyond it is
//     dropped unread; over TCP and TLS the connection's reads wait for
//     tokens (the sender's TCP window closes).
//   - TCP and TLS connections: at most Config.TCPPerAddress open from
//     one address; one more is closed at once.
//   - Idle connections: one that sends nothing within Config.TCPSilent
//     is closed; later, one silent for Config.TCPIdle (longer than a
//     registration's and a session timer's refresh intervals, so that a
//     terminal reached over its own connection stays reachable).

// bucket is one address's tokens.
type bucket struct {
	tokens float64
	at     time.Time
}

// addrLimiter is a token bucket per address.
type addrLimiter struct {
	rate, burst float64
	mu          sync.Mutex
	m           map[string]*bucket
	swept       time.Time
}

func newAddrLimiter(perSecond int) *addrLimiter {
	return &addrLimiter{rate: float64(perSecond), burst: 2 * float64(perSecond), m: map[string]*bucket{}}
}

// take takes a token of ip; when there is none it returns how long until
// there is one.
func (l *addrLimiter) take(ip string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > 10*time.Second { // forget the addresses whose bucket is full again
		for k, b := range l.m {
			if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
				delete(l.m, k)
			}
		}
		l.swept = now
	}
	b := l.m[ip]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.m[ip] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

func hostOf(a net.Addr) string {
	switch a := a.(type) {
	case *net.UDPAddr:
		return a.IP.String()
	case *net.TCPAddr:
		return a.IP.String()
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

// limitedPacketConn drops the datagrams of an address beyond its rate.
type limitedPacketConn struct {
	net.PacketConn
	lim     *addrLimiter
	dropped *atomic.Uint64
}

func (c *limitedPacketConn) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, from, err := c.PacketConn.ReadFrom(b)
		if err != nil {
			return n, from, err
		}
		if ok, _ := c.lim.take(hostOf(from), time.Now()); ok {
			return n, from, nil
		}
		c.dropped.Add(1)
	}
}

// limitedListener bounds the connections per address and wraps each.
type limitedListener struct {
	net.Listener
	lim     *addrLimiter
	max     int
	silent  time.Duration // a connection that never spoke
	idle    time.Duration // one that did
	refused *atomic.Uint64

	mu   sync.Mutex
	open map[string]int
}

func newLimitedListener(ln net.Listener, lim *addrLimiter, cfg *Config, refused *atomic.Uint64) *limitedListener {
	return &limitedListener{Listener: ln, lim: lim, max: cfg.TCPPerAddress, silent: cfg.TCPSilent, idle: cfg.TCPIdle, refused: refused,
		open: map[string]int{}}
}

func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := hostOf(c.RemoteAddr())
		l.mu.Lock()
		full := l.open[ip] >= l.max
		if !full {
			l.open[ip]++
		}
		l.mu.Unlock()
		if full {
			l.refused.Add(1)
			c.Close()
			continue
		}
		return &limitedConn{Conn: c, l: l, ip: ip}, nil
	}
}

func (l *limitedListener) closed(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

// limitedConn is an accepted connection: its reads wait for tokens and
// time out when it stays idle.
type limitedConn struct {
	net.Conn
	l      *limitedListener
	ip     string
	spoken bool // it sent something: the long idle timeout applies
	once   sync.Once
}

func (c *limitedConn) Read(b []byte) (int, error) {
	idle := c.l.silent
	if c.spoken {
		idle = c.l.idle
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(idle))
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.spoken = true
		for {
			ok, wait := c.l.lim.take(c.ip, time.Now())
			if ok {
				break
			}
			time.Sleep(wait)
		}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		c.Close() // idle: sipgo's reader ends with it
	}
	return n, err
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.closed(c.ip) })
	return err
}
