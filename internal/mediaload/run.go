// Package mediaload is the media load generator of cmd/confer-mediaload
// (docs/benchmarks.md "Media"): publishers send real encoded media (Opus,
// and VP8 for a video workload) paced by frame duration, subscribers receive
// it, over WHIP and WHEP (Confer's SFU, the bare forwarder of bench/) or
// through Janus's VideoRoom HTTP API, and the run reports forwarded packets
// per second and per server CPU-second, the server's CPU and memory per
// subscriber, time from request to first packet and loss.
package mediaload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"
)

// Config is one run.
type Config struct {
	Target   string // "whip" (WHIP/WHEP) or "janus"
	URL      string // WHIP: base URL of /rtc/...; Janus: the HTTP API (…/janus)
	PubToken string // WHIP bearer token of publishers
	SubToken string // WHEP bearer token of subscribers
	// RoomTokens are bearer tokens per room, for WHIP and WHEP (Confer's
	// rtc tokens are bound to one conference); a room without one uses
	// PubToken and SubToken.
	RoomTokens  map[string]string
	Rooms       []string // conference ids (WHIP) or VideoRoom room numbers (Janus)
	Publishers  int      // spread over the rooms in turn
	Subscribers int      // spread over the rooms in turn; each receives its room's publishers
	Audio       Clip
	Video       Clip // empty: audio only
	ServerPID   int  // 0: no server CPU and memory figures
	Warmup      time.Duration
	Duration    time.Duration
	JoinC       int      // joins in flight
	Loopback    bool     // refuse a non-loopback URL; ICE on loopback only
	Interceptor bool     // pion's default interceptors in the generator's connections
	Procs       int      // processes receiving (1: this one only)
	RcvBuf      int      // SO_RCVBUF of the generator's UDP sockets; 0: the system's default
	ChildArgv   []string // with Procs > 1: the command of a child (RunChild)
	Log         io.Writer
}

// Limits of one run ("bounded").
const (
	MaxPublishers  = 100
	MaxSubscribers = 5000
	MaxDuration    = 10 * time.Minute
)

// Report is a run's figures; the rates are over the measurement window.
type Report struct {
	Target                string
	Publishers            int
	Subscribers           int // joined and receiving
	JoinErrors            int
	FirstError            string
	Tracks                int // received tracks over all subscribers
	Window                time.Duration
	Packets               int64   // received by subscribers in the window
	PacketsPerSec         float64 // forwarded, received by subscribers
	ExpectedPacketsPerSec float64 // audio only: what the subscribers' publishers send them (less than PacketsPerSec: a backlog or loss)
	SentFramesPerSec      float64 // by publishers, against NominalFramesPerSec
	NominalFramesPerSec   float64
	Lost                  int64 // sequence gaps in the window
	LostTotal             int64 // sequence gaps since each track's first packet
	ServerCPU             time.Duration
	ServerCores           float64 // ServerCPU / Window
	PacketsPerCPUSecond   float64
	ServerRSSBefore       int64   // after publishing, before subscribers
	ServerRSS             int64   // at the end of the window
	CPUPerSubscriber      float64 // cores (ServerCores / Subscribers)
	RSSPerSubscriber      int64   // (ServerRSS - ServerRSSBefore) / Subscribers
	GeneratorCores        float64 // this process and its children
	GeneratorProcs        int
	UDPRcvbufErrors       int64         // datagrams dropped at full receive buffers in the window (whole host)
	ServerUDPDrops        int64         // of which at the server's sockets (those open at the end)
	GeneratorUDPDrops     int64         // of which at the generator's
	JoinFirstP50          time.Duration // subscriber: request to first packet
	JoinFirstP99          time.Duration
	JoinFirstMax          time.Duration
	JoinAnswerP50         time.Duration // subscriber: request to the answer applied (signalling)
	JoinAnswerP99         time.Duration
	JoinConnectedP50      time.Duration // subscriber: request to connected (ICE and DTLS done)
	JoinConnectedP99      time.Duration
	PublishConnectedP50   time.Duration // publisher: request to connected
	NoPacket              int           // subscribers that got no packet
	LoadBefore, LoadAfter string
}

// Run runs the workload and returns its report.
func Run(ctx context.Context, c Config) (*Report, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	logf := func(format string, a ...any) {
		if c.Log != nil {
			fmt.Fprintf(c.Log, format+"\n", a...)
		}
	}
	api, err := newAPI(c.Loopback, c.Target == "janus", c.Interceptor, c.RcvBuf)
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var d driver
	switch c.Target {
	case "whip":
		d = &whip{base: c.URL, pubToken: c.PubToken, subToken: c.SubToken, roomTokens: c.RoomTokens, client: client}
	case "janus":
		d = &janus{base: c.URL, client: client}
	}
	rep := &Report{Target: c.Target, LoadBefore: LoadAvg()}
	if err := d.prepare(ctx, c.Rooms, c.Publishers); err != nil {
		return nil, err
	}
	defer d.cleanup(context.Background())

	// Publishers, all connected before any subscriber.
	kinds := []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio}
	if len(c.Video.Frames) > 0 {
		kinds = append(kinds, webrtc.RTPCodecTypeVideo)
	}
	sendCtx, stopSending := context.WithCancel(ctx)
	var sending sync.WaitGroup
	defer func() { stopSending(); sending.Wait() }()
	pubs := make([]*publisher, c.Publishers)
	feeds := map[string][]string{}
	var pubReady []time.Duration
	for i := range pubs {
		room := c.Rooms[i%len(c.Rooms)]
		p, err := newPublisher(api, fmt.Sprintf("pub%d", i), c.Audio, c.Video)
		if err != nil {
			return nil, err
		}
		pubs[i] = p
		defer p.pc.Close()
		connected := make(chan struct{})
		var once sync.Once
		p.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
			if s == webrtc.PeerConnectionStateConnected {
				once.Do(func() { close(connected) })
			}
		})
		start := time.Now()
		feed, leave, err := d.publish(ctx, room, fmt.Sprintf("pub%d", i), p.pc)
		if err != nil {
			return nil, fmt.Errorf("publisher %d: %w", i, err)
		}
		defer leave()
		select {
		case <-connected:
		case <-time.After(20 * time.Second):
			return nil, fmt.Errorf("publisher %d: not connected after 20 s", i)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		pubReady = append(pubReady, time.Since(start))
		p.feed = feed
		if c.Target == "whip" {
			feed = fmt.Sprint(i) // WHEP names no feed: one transceiver set per publisher
		}
		feeds[room] = append(feeds[room], feed)
		sending.Add(1)
		go func() { defer sending.Done(); p.send(sendCtx) }()
	}
	rep.Publishers = len(pubs)
	rep.PublishConnectedP50 = percentile(pubReady, 50)
	time.Sleep(500 * time.Millisecond) // the forwarder has seen every publisher's first packets
	if c.ServerPID != 0 {
		rep.ServerRSSBefore, _ = ProcRSS(c.ServerPID)
	}
	logf("%d publishers connected (p50 %v); joining %d subscribers", len(pubs), rep.PublishConnectedP50.Round(time.Millisecond), c.Subscribers)

	// Subscribers, JoinC at a time in each of Procs processes: the first
	// share is this process's, the others children's.
	assigned := make([][]assignment, c.Procs)
	for i := 0; i < c.Subscribers; i++ {
		assigned[i%c.Procs] = append(assigned[i%c.Procs], assignment{Index: i, Room: c.Rooms[i%len(c.Rooms)]})
	}
	shares := make([]share, c.Procs)
	results := make([]joinResult, c.Procs)
	errs := make([]error, c.Procs)
	var joining sync.WaitGroup
	for k := range shares {
		joining.Add(1)
		go func(k int) {
			defer joining.Done()
			if k == 0 {
				l := joinLocal(ctx, api, d, c.JoinC, kinds, assigned[0], feeds)
				shares[0], results[0] = l, l.res
				return
			}
			ch, r, err := startChild(ctx, c.ChildArgv, childSetup{
				Target: c.Target, URL: c.URL, SubToken: c.SubToken, RoomTokens: c.RoomTokens, Loopback: c.Loopback, RcvBuf: c.RcvBuf,
				Interceptor: c.Interceptor, JoinC: c.JoinC, Kinds: kinds, Subs: assigned[k], Feeds: feeds,
			})
			if err != nil {
				errs[k] = err
				return
			}
			shares[k], results[k] = ch, r
		}(k)
	}
	joining.Wait()
	defer func() {
		for _, sh := range shares {
			if sh != nil {
				sh.close()
			}
		}
	}()
	joined := 0
	for k, r := range results {
		if errs[k] != nil {
			return nil, fmt.Errorf("generator process %d: %w", k, errs[k])
		}
		joined += r.Joined
		rep.JoinErrors += r.Errors
		if rep.FirstError == "" {
			rep.FirstError = r.FirstError
		}
	}
	logf("%d subscribers joined in %d processes, %d errors%s; warm-up %v", joined, c.Procs, rep.JoinErrors, firstErr(rep.FirstError), c.Warmup)
	if joined == 0 {
		return rep, errors.New("no subscriber joined: " + rep.FirstError)
	}
	sleep(ctx, c.Warmup)

	// The measurement window.
	type sample struct {
		at            time.Time
		packets, lost int64
		sent          int64
		server, self  time.Duration
		rcvbuf        int64
		drops, sdrops int64
	}
	take := func() sample {
		s := sample{at: time.Now(), rcvbuf: UDPRcvbufErrors()}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, sh := range shares {
			wg.Add(1)
			go func(sh share) {
				defer wg.Done()
				n := sh.count()
				cpu, _ := ProcCPU(sh.pid(), false)
				drops := ProcUDPDrops(sh.pid())
				mu.Lock()
				s.drops += drops
				s.packets += n.Packets
				s.lost += n.Lost
				s.self += cpu
				mu.Unlock()
			}(sh)
		}
		for _, p := range pubs {
			s.sent += p.sent.Load()
		}
		if c.ServerPID != 0 {
			s.server, _ = ProcCPU(c.ServerPID, false)
			s.sdrops = ProcUDPDrops(c.ServerPID)
		}
		wg.Wait()
		return s
	}
	a := take()
	sleep(ctx, c.Duration)
	b := take()
	if c.ServerPID != 0 {
		rep.ServerRSS, _ = ProcRSS(c.ServerPID)
	}
	rep.LoadAfter = LoadAvg()

	w := b.at.Sub(a.at)
	rep.Window = w
	rep.Subscribers = joined
	rep.Packets = b.packets - a.packets
	rep.PacketsPerSec = float64(rep.Packets) / w.Seconds()
	rep.SentFramesPerSec = float64(b.sent-a.sent) / w.Seconds()
	if len(c.Video.Frames) == 0 { // an Opus frame is one packet; a VP8 frame, one or more
		for i := 0; i < joined; i++ {
			rep.ExpectedPacketsPerSec += float64(len(feeds[c.Rooms[i%len(c.Rooms)]])) * float64(len(c.Audio.Frames)) / clipDuration(c.Audio).Seconds()
		}
	}
	for _, p := range pubs {
		for _, clip := range p.clips {
			rep.NominalFramesPerSec += float64(len(clip.Frames)) / clipDuration(clip).Seconds()
		}
	}
	rep.Lost = b.lost - a.lost
	rep.LostTotal = b.lost
	rep.GeneratorCores = (b.self - a.self).Seconds() / w.Seconds()
	rep.GeneratorProcs = c.Procs
	rep.UDPRcvbufErrors = b.rcvbuf - a.rcvbuf
	rep.ServerUDPDrops = b.sdrops - a.sdrops
	rep.GeneratorUDPDrops = b.drops - a.drops
	if c.ServerPID != 0 {
		rep.ServerCPU = b.server - a.server
		rep.ServerCores = rep.ServerCPU.Seconds() / w.Seconds()
		if rep.ServerCPU > 0 {
			rep.PacketsPerCPUSecond = float64(rep.Packets) / rep.ServerCPU.Seconds()
		}
		rep.CPUPerSubscriber = rep.ServerCores / float64(joined)
		rep.RSSPerSubscriber = (rep.ServerRSS - rep.ServerRSSBefore) / int64(joined)
	}
	var firsts, answers, conns []time.Duration
	for _, sh := range shares {
		r := sh.result()
		rep.Tracks += r.Tracks
		rep.NoPacket += r.NoPacket
		firsts = append(firsts, r.Firsts...)
		answers = append(answers, r.Answers...)
		conns = append(conns, r.Connected...)
	}
	rep.JoinFirstP50 = percentile(firsts, 50)
	rep.JoinFirstP99 = percentile(firsts, 99)
	rep.JoinFirstMax = percentile(firsts, 100)
	rep.JoinAnswerP50, rep.JoinAnswerP99 = percentile(answers, 50), percentile(answers, 99)
	rep.JoinConnectedP50, rep.JoinConnectedP99 = percentile(conns, 50), percentile(conns, 99)
	return rep, nil
}

func (c *Config) check() error {
	switch c.Target {
	case "whip", "janus":
	default:
		return fmt.Errorf("target %q: whip or janus", c.Target)
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("url %q: not an absolute URL", c.URL)
	}
	if c.Loopback {
		ip := net.ParseIP(u.Hostname())
		if !(u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()) {
			return fmt.Errorf("url %q: not a loopback address (the generator is loopback-only by default)", c.URL)
		}
	}
	switch {
	case c.Publishers < 1 || c.Publishers > MaxPublishers:
		return fmt.Errorf("publishers %d: 1 to %d", c.Publishers, MaxPublishers)
	case c.Subscribers < 1 || c.Subscribers > MaxSubscribers:
		return fmt.Errorf("subscribers %d: 1 to %d", c.Subscribers, MaxSubscribers)
	case len(c.Rooms) < 1 || len(c.Rooms) > c.Publishers:
		return fmt.Errorf("rooms: 1 to the number of publishers, %d given", len(c.Rooms))
	case c.Duration <= 0 || c.Duration > MaxDuration || c.Warmup < 0 || c.Warmup > MaxDuration:
		return fmt.Errorf("duration and warm-up: up to %v", MaxDuration)
	case len(c.Audio.Frames) == 0:
		return errors.New("no audio clip")
	}
	if c.JoinC < 1 {
		c.JoinC = 1
	}
	if c.Procs < 1 {
		c.Procs = 1
	}
	if c.Procs > 16 || c.Procs > 1 && len(c.ChildArgv) == 0 {
		return errors.New("procs: 1 to 16, and more than 1 needs the child command")
	}
	return nil
}

func clipDuration(c Clip) time.Duration {
	var d time.Duration
	for _, f := range c.Frames {
		d += f.Duration
	}
	return d
}

// percentile is the nearest-rank percentile p of ds (0 when empty).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := (p*len(s) + 99) / 100
	if k < 1 {
		k = 1
	}
	return s[k-1]
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

func firstErr(s string) string {
	if s == "" {
		return ""
	}
	return " (first: " + s + ")"
}
