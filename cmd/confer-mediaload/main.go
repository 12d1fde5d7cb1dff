// Command confer-mediaload is the media load generator of docs/benchmarks.md
// "Media": N publishers send real encoded media (Opus; VP8 too with
// --video) paced by frame duration, M subscribers receive it, over WHIP and
// WHEP (Confer's SFU, or the bare forwarder of bench/) or through Janus's
// VideoRoom HTTP API, and it prints forwarded packets per second and per
// server CPU-second, the server's CPU and memory per subscriber, request to
// first packet (p50, p99) and loss.
//
//	confer-mediaload --target whip --url http://127.0.0.1:8091 --server-pid $PID \
//	    --publishers 10 --subscribers 500 --duration 20s
//	confer-mediaload --target janus --start-janus --publishers 10 --subscribers 500
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/mediaload"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "confer-mediaload:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("confer-mediaload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		c          mediaload.Config
		rooms      string
		roomCount  int
		token      string
		audioFile  string
		videoFile  string
		video      bool
		startJanus bool
		janusLoops int
		janusDebug int
		format     string
		remote     bool
		keep       bool
		label      string
		roomTokens string
	)
	fs.StringVar(&c.Target, "target", "whip", "whip (WHIP and WHEP: Confer's SFU, the bare forwarder) or janus (Janus's VideoRoom HTTP API)")
	fs.StringVar(&c.URL, "url", "http://127.0.0.1:8091", "whip: base URL of /rtc/whip/{room} and /rtc/whep/{room}; janus: the HTTP API, e.g. http://127.0.0.1:8088/janus")
	fs.StringVar(&token, "token", os.Getenv("CONFER_RTC_TOKEN"), "bearer token of WHIP and WHEP requests (env CONFER_RTC_TOKEN)")
	fs.StringVar(&c.PubToken, "pub-token", "", "bearer token of WHIP requests (default --token)")
	fs.StringVar(&c.SubToken, "sub-token", "", "bearer token of WHEP requests (default --token)")
	fs.StringVar(&roomTokens, "room-tokens", "", "comma-separated bearer tokens, one per room of --rooms in order (Confer's rtc tokens are per conference); overrides --token")
	fs.StringVar(&rooms, "rooms", "", "comma-separated conference ids (whip) or room numbers (janus); default: --room-count rooms named 1001, 1002, ...")
	fs.IntVar(&roomCount, "room-count", 0, "rooms when --rooms is not given (default: one per publisher)")
	fs.IntVar(&c.Publishers, "publishers", 10, "publishers, spread over the rooms in turn")
	fs.IntVar(&c.Subscribers, "subscribers", 100, "subscribers, spread over the rooms in turn; each receives every publisher of its room")
	fs.BoolVar(&video, "video", false, "publishers send VP8 video besides Opus audio")
	fs.StringVar(&audioFile, "audio-file", "", "Ogg Opus file to send (default: a 440 Hz sine generated with ffmpeg)")
	fs.StringVar(&videoFile, "video-file", "", "IVF VP8 file to send with --video (default: ffmpeg's testsrc, 640x360, 30 frames/s, 500 kbit/s)")
	fs.IntVar(&c.ServerPID, "server-pid", 0, "the server's process id: its CPU (/proc/PID/stat) and memory go into the report")
	fs.DurationVar(&c.Warmup, "warmup", 3*time.Second, "wait after the last subscriber joined before measuring")
	fs.DurationVar(&c.Duration, "duration", 20*time.Second, "measurement window (at most 10m)")
	fs.IntVar(&c.JoinC, "join-c", 8, "subscriber joins in flight (in each process)")
	fs.IntVar(&c.Procs, "procs", 1, "processes receiving media: subscribers are spread over this one and procs-1 children (at most 16)")
	fs.IntVar(&c.RcvBuf, "rcvbuf", 0, "receive buffer (SO_RCVBUF) of the generator's UDP sockets in bytes, capped by net.core.rmem_max; 0: the system's default")
	child := fs.Bool("child", false, "internal: run as a child process of --procs")
	fs.BoolVar(&c.Interceptor, "interceptors", false, "pion's default interceptors (NACK, RTCP reports, TWCC) in the generator's connections")
	fs.BoolVar(&remote, "allow-remote", false, "allow a non-loopback URL and non-loopback ICE candidates")
	fs.BoolVar(&startJanus, "start-janus", false, "start Janus (Debian package janus) with a generated configuration in a temporary folder and target it")
	fs.IntVar(&janusLoops, "janus-event-loops", 0, "with --start-janus: Janus's event_loops (0: a thread per handle, Janus's default)")
	fs.IntVar(&janusDebug, "janus-debug", 2, "with --start-janus: Janus's debug_level (0..7)")
	fs.StringVar(&format, "format", "text", "report format: text, json, or tsv (a header line and a line of figures)")
	fs.StringVar(&label, "label", "", "name of the target in the report (default: --target)")
	fs.BoolVar(&keep, "keep", false, "keep the temporary folder (generated media, Janus's configuration and log)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *child {
		return mediaload.RunChild(context.Background(), os.Stdin, stdout)
	}
	if c.Procs > 1 {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		c.ChildArgv = []string{exe, "--child"}
	}
	if format != "text" && format != "json" && format != "tsv" {
		return fmt.Errorf("--format %q: text, json or tsv", format)
	}
	c.Loopback = !remote
	c.Log = stderr
	if c.PubToken == "" {
		c.PubToken = token
	}
	if c.SubToken == "" {
		c.SubToken = token
	}
	if rooms != "" {
		c.Rooms = strings.Split(rooms, ",")
	} else if roomTokens != "" {
		return fmt.Errorf("--room-tokens needs --rooms")
	} else {
		if roomCount <= 0 {
			roomCount = c.Publishers
		}
		for i := 0; i < roomCount && i <= mediaload.MaxPublishers; i++ {
			c.Rooms = append(c.Rooms, strconv.Itoa(1001+i))
		}
	}
	if roomTokens != "" {
		toks := strings.Split(roomTokens, ",")
		if len(toks) != len(c.Rooms) {
			return fmt.Errorf("--room-tokens: %d tokens for %d rooms", len(toks), len(c.Rooms))
		}
		c.RoomTokens = map[string]string{}
		for i, r := range c.Rooms {
			c.RoomTokens[r] = toks[i]
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	tmp, err := os.MkdirTemp("", "confer-mediaload-")
	if err != nil {
		return err
	}
	defer func() {
		if keep {
			fmt.Fprintln(stderr, "kept", tmp)
		} else {
			os.RemoveAll(tmp)
		}
	}()
	if audioFile == "" || video && videoFile == "" {
		a, v, err := mediaload.Generate(tmp, video && videoFile == "", 10)
		if err != nil {
			return err
		}
		if audioFile == "" {
			audioFile = a
		}
		if videoFile == "" {
			videoFile = v
		}
	}
	if c.Audio, err = mediaload.ReadOgg(audioFile); err != nil {
		return err
	}
	if video {
		if c.Video, err = mediaload.ReadIVF(videoFile); err != nil {
			return err
		}
	}
	if startJanus {
		j, err := mediaload.StartJanus(ctx, tmp, mediaload.JanusOptions{EventLoops: janusLoops, DebugLevel: janusDebug})
		if err != nil {
			return err
		}
		defer j.Stop()
		c.Target, c.URL, c.ServerPID = "janus", j.URL, j.PID()
		fmt.Fprintf(stderr, "janus %s (pid %d, configuration and log in %s)\n", j.URL, j.PID(), j.Dir)
	}
	rep, err := mediaload.Run(ctx, c)
	if err != nil {
		return err
	}
	if label != "" {
		rep.Target = label
	}
	switch format {
	case "json":
		e := json.NewEncoder(stdout)
		e.SetIndent("", "  ")
		return e.Encode(rep)
	case "tsv":
		fmt.Fprintln(stdout, mediaload.TSVHeader)
		fmt.Fprintln(stdout, mediaload.TSV(rep))
	default:
		mediaload.Print(stdout, rep)
	}
	return nil
}
