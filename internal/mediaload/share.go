package mediaload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"
)

// A share is a set of subscribers run by one process: the generator's own
// (local) or a child process's (--procs), so that the receiving side can be
// spread over processes.
type share interface {
	count() counts      // packets and gaps so far
	result() joinResult // after the window: tracks, first-packet times
	pid() int           // the process whose CPU is the generator's
	close()
}

type counts struct{ Packets, Lost int64 }

type joinResult struct {
	Joined, Errors int
	FirstError     string
	Tracks         int
	NoPacket       int
	Firsts         []time.Duration
	Answers        []time.Duration // request to answer applied
	Connected      []time.Duration // request to connected
}

// assignment is a subscriber's index and room.
type assignment struct {
	Index int
	Room  string
}

type local struct {
	subs []*subscriber
	res  joinResult
}

// joinLocal joins the assigned subscribers, joinC at a time.
func joinLocal(ctx context.Context, api *webrtc.API, d driver, joinC int, kinds []webrtc.RTPCodecType, as []assignment, feeds map[string][]string) *local {
	l := &local{}
	var mu sync.Mutex
	sem := make(chan struct{}, joinC)
	var wg sync.WaitGroup
	for _, a := range as {
		sem <- struct{}{}
		wg.Add(1)
		go func(a assignment) {
			defer wg.Done()
			defer func() { <-sem }()
			s, err := newSubscriber(api)
			if err == nil {
				s.start = time.Now()
				s.closer, err = d.subscribe(ctx, a.Room, feeds[a.Room], kinds, s.pc)
				s.answer = time.Since(s.start)
				if err != nil {
					s.pc.Close()
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if l.res.Errors++; l.res.FirstError == "" {
					l.res.FirstError = fmt.Sprintf("subscriber %d: %v", a.Index, err)
				}
				return
			}
			l.subs = append(l.subs, s)
		}(a)
	}
	wg.Wait()
	l.res.Joined = len(l.subs)
	return l
}

func (l *local) count() counts {
	var c counts
	for _, s := range l.subs {
		r, lost, _ := s.snapshot()
		c.Packets += r
		c.Lost += lost
	}
	return c
}

func (l *local) result() joinResult {
	r := l.res
	for _, s := range l.subs {
		_, _, n := s.snapshot()
		r.Tracks += n
		if f := s.first.Load(); f > 0 {
			r.Firsts = append(r.Firsts, time.Duration(f))
			r.Answers = append(r.Answers, s.answer)
			r.Connected = append(r.Connected, time.Duration(s.conn.Load()))
		} else {
			r.NoPacket++
		}
	}
	return r
}

func (l *local) pid() int { return os.Getpid() }

func (l *local) close() {
	for _, s := range l.subs {
		s.closer()
		s.pc.Close()
	}
}

// childSetup is the first line a child reads: what to join.
type childSetup struct {
	Target, URL, SubToken string
	RoomTokens            map[string]string
	Loopback, Interceptor bool
	JoinC, RcvBuf         int
	Kinds                 []webrtc.RTPCodecType
	Subs                  []assignment
	Feeds                 map[string][]string
}

// child is a share in another process, driven over its standard input and
// output one JSON line at a time: setup → joinResult; "count" → counts;
// "result" → joinResult; end of input → it leaves and exits.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	mu  sync.Mutex
}

// startChild starts argv (the generator in child mode) and waits until it
// has joined its subscribers.
func startChild(ctx context.Context, argv []string, setup childSetup) (*child, joinResult, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, joinResult{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, joinResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return nil, joinResult{}, err
	}
	c := &child{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	c.out.Buffer(nil, 16<<20)
	var r joinResult
	b, _ := json.Marshal(setup)
	if err := c.ask(string(b), &r); err != nil {
		c.close()
		return nil, r, err
	}
	return c, r, nil
}

func (c *child) ask(line string, v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return err
	}
	if !c.out.Scan() {
		return fmt.Errorf("child %d: no reply (%v)", c.cmd.Process.Pid, c.out.Err())
	}
	return json.Unmarshal(c.out.Bytes(), v)
}

func (c *child) count() counts {
	var n counts
	c.ask("count", &n)
	return n
}

func (c *child) result() joinResult {
	var r joinResult
	c.ask("result", &r)
	return r
}

func (c *child) pid() int { return c.cmd.Process.Pid }

func (c *child) close() {
	c.in.Close()
	c.cmd.Wait()
}

// RunChild is the child mode of the generator (--procs): it reads its
// setup, joins, then answers "count" and "result" until its input ends.
func RunChild(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() {
		return errors.New("child: no setup")
	}
	var s childSetup
	if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
		return fmt.Errorf("child: setup: %w", err)
	}
	api, err := newAPI(s.Loopback, s.Target == "janus", s.Interceptor, s.RcvBuf)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var d driver = &whip{base: s.URL, subToken: s.SubToken, roomTokens: s.RoomTokens, client: client}
	if s.Target == "janus" {
		d = &janus{base: s.URL, client: client}
	}
	l := joinLocal(ctx, api, d, s.JoinC, s.Kinds, s.Subs, s.Feeds)
	defer l.close()
	enc := json.NewEncoder(out)
	if err := enc.Encode(l.res); err != nil {
		return err
	}
	for sc.Scan() {
		switch sc.Text() {
		case "count":
			enc.Encode(l.count())
		case "result":
			enc.Encode(l.result())
		}
	}
	return nil
}
