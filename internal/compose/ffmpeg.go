package compose

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
)

// The codec route (docs/architecture.md "Composed pictures"): decoding
// and encoding run in ffmpeg processes, one per pane source and one per
// distinct output, talking raw I420 frames with the compositor over pipes;
// the composition itself (scaling, placing, names, placeholders) is done
// here on I420 frames, so that a change of the layout or of a pane shows
// on the next frame without restarting anything.

// ErrNoFFmpeg is returned where composition needs ffmpeg and the node has
// none: composed pictures are refused, never sent black.
var ErrNoFFmpeg = errors.New("compose: ffmpeg is not installed on this node (composed pictures need it)")

// FindFFmpeg returns the path of the ffmpeg binary: path when set, else
// "ffmpeg" on the PATH; ErrNoFFmpeg when it cannot be found.
func FindFFmpeg(path string) (string, error) {
	if path == "" {
		path = "ffmpeg"
	}
	p, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoFFmpeg, err)
	}
	return p, nil
}

// process is one ffmpeg process with its pipes.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *bufio.Reader
	stderr *bytes.Buffer
	once   sync.Once
	done   chan struct{}
}

// rawPipe is the size asked for the pipes that carry raw pictures (a
// decoder's output, an encoder's input): with the default 64 KiB, a
// 1280×720 picture crosses in 22 writes, each waking the reader; 1 MiB
// (Linux's default pipe-max-size) takes a 640×360 picture in one.
const rawPipe = 1 << 20

// start runs ffmpeg with args (after -hide_banner -loglevel error); the
// pipes of its input and output are asked to hold inSize and outSize
// bytes (0 leaves the default) where the system allows it.
func start(ffmpeg string, inSize, outSize int, args ...string) (*process, error) {
	cmd := exec.Command(ffmpeg, append([]string{"-hide_banner", "-nostats", "-loglevel", "error"}, args...)...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("compose: pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("compose: pipe: %w", err)
	}
	if inSize > 0 {
		setPipeSize(inW, inSize)
	}
	if outSize > 0 {
		setPipeSize(outR, outSize)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	p := &process{cmd: cmd, stdin: inW, stdout: bufio.NewReaderSize(outR, 4<<10), stderr: &bytes.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = &limited{b: p.stderr, n: 4096}
	err = cmd.Start()
	inR.Close() // the child's ends
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("compose: start ffmpeg: %w", err)
	}
	go func() {
		_ = cmd.Wait()
		_ = outR.Close()
		close(p.done)
	}()
	return p, nil
}

// stop closes the input and kills the process.
func (p *process) stop() {
	p.once.Do(func() {
		_ = p.stdin.Close()
		_ = p.cmd.Process.Kill()
	})
	<-p.done
}

// limited keeps the first n bytes written (ffmpeg's error messages).
type limited struct {
	mu sync.Mutex
	b  *bytes.Buffer
	n  int
}

func (l *limited) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// readY4M reads a YUV4MPEG2 stream's frames (ffmpeg -f yuv4mpegpipe
// -pix_fmt yuv420p) into frames of buffer and passes each to fn until the
// stream ends.
func readY4M(r *bufio.Reader, buffer func(w, h int) *Frame, fn func(*Frame)) error {
	line, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	w, h := 0, 0
	for _, f := range bytes.Fields([]byte(line)) {
		switch f[0] {
		case 'W':
			w, _ = strconv.Atoi(string(f[1:]))
		case 'H':
			h, _ = strconv.Atoi(string(f[1:]))
		}
	}
	if w <= 0 || h <= 0 || w%2 != 0 || h%2 != 0 {
		return fmt.Errorf("compose: y4m header %q", line)
	}
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if len(l) < 5 || l[:5] != "FRAME" {
			return fmt.Errorf("compose: y4m frame header %q", l)
		}
		f := buffer(w, h)
		if _, err := io.ReadFull(r, f.Bytes()); err != nil {
			return err
		}
		fn(f)
	}
}
