package compose

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
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
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *bufio.Reader  // an encoder's output
	pictures *pictureReader // a decoder's output (start with pictures)
	stderr   *bytes.Buffer
	once     sync.Once
	done     chan struct{}
}

// rawPipe is the size asked for the pipes that carry raw pictures (a
// decoder's output where it cannot be a socket, an encoder's input):
// with the default 64 KiB, a 1280×720 picture crosses in 22 writes, each
// waking the reader; 1 MiB (Linux's default pipe-max-size) takes a
// 640×360 picture in one.
const rawPipe = 1 << 20

// start runs ffmpeg with args (after -hide_banner -loglevel error); the
// pipe of its input is asked to hold inSize bytes (0 leaves the
// default) where the system allows it. With pictures, its output is raw
// pictures (a decoder's) read through a pictureReader: a loopback TCP
// connection (pictureConn), a pipe of rawPipe bytes where that fails.
func start(ffmpeg string, inSize int, pictures bool, args ...string) (*process, error) {
	cmd := exec.Command(ffmpeg, append([]string{"-hide_banner", "-nostats", "-loglevel", "error"}, args...)...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("compose: pipe: %w", err)
	}
	var ours io.ReadCloser
	var theirs *os.File
	var lowat func(int)
	if pictures && pictureSockets {
		if c, f, cerr := pictureConn(); cerr == nil {
			ours, theirs, lowat = c, f, func(n int) { setLowat(c, n) }
		}
	}
	if theirs == nil {
		r, w, perr := os.Pipe()
		if perr != nil {
			inR.Close()
			inW.Close()
			return nil, fmt.Errorf("compose: pipe: %w", perr)
		}
		if pictures {
			setPipeSize(r, rawPipe)
		}
		ours, theirs = r, w
	}
	if inSize > 0 {
		setPipeSize(inW, inSize)
	}
	cmd.Stdin, cmd.Stdout = inR, theirs
	p := &process{cmd: cmd, stdin: inW, stderr: &bytes.Buffer{}, done: make(chan struct{})}
	if pictures {
		p.pictures = &pictureReader{r: ours, lowat: lowat}
		if sc, ok := ours.(syscall.Conn); ok {
			p.pictures.rc, _ = sc.SyscallConn()
		}
	} else {
		p.stdout = bufio.NewReaderSize(ours, 4<<10)
	}
	cmd.Stderr = &limited{b: p.stderr, n: 4096}
	err = cmd.Start()
	inR.Close() // the child's ends
	theirs.Close()
	if err != nil {
		inW.Close()
		ours.Close()
		return nil, fmt.Errorf("compose: start ffmpeg: %w", err)
	}
	go func() {
		_ = cmd.Wait()
		_ = ours.Close()
		close(p.done)
	}()
	return p, nil
}

// pictureSockets says whether decoders' pictures take a pictureConn
// (BenchmarkPictureTransport compares it with a pipe).
var pictureSockets = true

// pictureConn is a loopback TCP connection carrying a decoder's pictures:
// ours to read, theirs (a blocking descriptor) the decoder's output.
// ffmpeg writes a picture in pieces of 32 KiB (its I/O buffer; no option
// changes it); from a pipe the Go process is woken for each piece (11
// for a 640×360 picture: 1,300 times a second for four panes, each a
// poller event, a goroutine scheduled, two reads). A TCP socket's
// receive low-water mark (SO_RCVLOWAT, which Linux honours for TCP and
// not for pipes or Unix sockets) set to a whole picture wakes it once a
// picture instead. Go's TCP connections have TCP_NODELAY, so the
// picture's last piece is not held back. The listener takes only the
// connection this process dialled (its address checked), then closes.
func pictureConn() (*net.TCPConn, *os.File, error) {
	l, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, nil, err
	}
	defer l.Close()
	d, err := net.DialTCP("tcp", nil, l.Addr().(*net.TCPAddr))
	if err != nil {
		return nil, nil, err
	}
	defer d.Close() // theirs is a duplicate of it
	_ = l.SetDeadline(time.Now().Add(5 * time.Second))
	for {
		c, err := l.AcceptTCP()
		if err != nil {
			return nil, nil, err
		}
		if c.RemoteAddr().String() != d.LocalAddr().String() {
			c.Close() // not ours
			continue
		}
		f, err := d.File()
		if err != nil {
			c.Close()
			return nil, nil, err
		}
		return c, f, nil
	}
}

// pictureReader reads a decoder's YUV4MPEG2 stream unbuffered: the
// stream header, then per picture its 6-byte frame header and the
// picture straight into its buffer. lowat (nil on a pipe) sets how
// many bytes must be waiting before a read wakes: a whole frame record
// once the picture size is known.
type pictureReader struct {
	r     io.Reader
	lowat func(n int)
	rc    syscall.RawConn // r's descriptor (reading into the canvas), nil none
	iov   []iovec
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
// stream ends; direct (nil: none) may read a picture itself first (into
// the canvas: handled true).
func readY4M(pr *pictureReader, buffer func(w, h int) *Frame, fn func(*Frame), direct func(w, h int) (bool, error)) error {
	line, err := readLine(pr.r, nil)
	if err != nil {
		return err
	}
	w, h := 0, 0
	for _, f := range bytes.Fields(line) {
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
	const frameHeader = "FRAME\n" // ffmpeg's: no frame parameters
	if pr.lowat != nil {
		pr.lowat(len(frameHeader) + w*h*3/2)
	}
	hdr := make([]byte, len(frameHeader))
	for {
		if _, err := io.ReadFull(pr.r, hdr); err != nil {
			return err
		}
		if string(hdr) != frameHeader {
			if string(hdr[:5]) != "FRAME" {
				return fmt.Errorf("compose: y4m frame header %q", hdr)
			}
			if _, err := readLine(pr.r, hdr[5:]); err != nil { // parameters
				return err
			}
		}
		if direct != nil {
			if handled, err := direct(w, h); err != nil {
				return err
			} else if handled {
				continue
			}
		}
		f := buffer(w, h)
		if _, err := io.ReadFull(pr.r, f.Bytes()); err != nil {
			return err
		}
		fn(f)
	}
}

// readLine reads up to a newline a byte at a time (a stream header, once
// per decoder), after the bytes already read.
func readLine(r io.Reader, already []byte) ([]byte, error) {
	line := append([]byte(nil), already...)
	if bytes.IndexByte(line, '\n') >= 0 {
		return line, nil
	}
	var b [1]byte
	for len(line) < 4096 {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, err
		}
		line = append(line, b[0])
		if b[0] == '\n' {
			return line, nil
		}
	}
	return nil, fmt.Errorf("compose: y4m header longer than 4096 bytes")
}
