// Package opus encodes and decodes Opus (RFC 6716) with the reference
// codec, libopus, compiled to WebAssembly (libopus.wasm, built by
// scripts/opus-wasm/build.sh) and run by wazero, a WebAssembly runtime
// written in Go: conferd stays free of cgo and static, and the same bytes
// run on every platform (wazero compiles them to machine code on amd64 and
// arm64, and interprets them elsewhere).
//
// One runtime and one compiled module serve the process; each Encoder and
// Decoder is its own module instance (its own memory of a few hundred KiB),
// so codecs never share state and need no lock between them. An Encoder or
// a Decoder is not safe for concurrent use.
package opus

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// libopus 1.5.2, fixed-point; see SOURCE.md, LICENSE.libopus and
// scripts/opus-wasm.
//
//go:embed libopus.wasm
var wasmBytes []byte

var engine struct {
	once     sync.Once
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

// Available reports nil when Opus can run here, or why it cannot (the
// embedded module failed to compile on this platform, or CONFER_OPUS=off
// makes the node behave as one where it cannot: docs/mixing.md).
func Available() error {
	if os.Getenv("CONFER_OPUS") == "off" {
		return errOff
	}
	load()
	return engine.err
}

var errOff = errors.New("opus: turned off (CONFER_OPUS=off)")

func load() {
	engine.once.Do(func() {
		ctx := context.Background()
		r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
		c, err := r.CompileModule(ctx, wasmBytes)
		if err != nil {
			engine.err = fmt.Errorf("opus: libopus.wasm does not compile here: %w", err)
			return
		}
		engine.runtime, engine.compiled = r, c
	})
}

// instance is one libopus module instance with its exported functions and
// two scratch buffers in its memory: pcm for samples, pkt for packets.
type instance struct {
	mod   api.Module
	mem   api.Memory
	fn    map[string]api.Function
	stack []uint64
	pcm   uint32 // offset of the sample buffer (maxSamples int16)
	pkt   uint32 // offset of the packet buffer (maxPacket bytes)
	errp  uint32 // offset of an int for error codes
}

const (
	maxSamples = 5760 * 2 // 120 ms at 48 kHz, stereo
	maxPacket  = 4000     // the size libopus recommends for one packet
)

func newInstance() (*instance, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	ctx := context.Background()
	// Anonymous instances (no name) may be many at once; _initialize is the
	// reactor's start function (it sets up the C library).
	mod, err := engine.runtime.InstantiateModule(ctx, engine.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize"))
	if err != nil {
		return nil, fmt.Errorf("opus: instantiate libopus.wasm: %w", err)
	}
	in := &instance{mod: mod, mem: mod.Memory(), fn: map[string]api.Function{}, stack: make([]uint64, 8)}
	for _, name := range []string{"buf_alloc", "buf_free", "enc_new", "enc_free", "enc_encode",
		"enc_set_bitrate", "enc_set_complexity", "enc_set_inband_fec", "enc_set_packet_loss",
		"enc_set_dtx", "enc_set_signal", "dec_new", "dec_free", "dec_decode"} {
		f := mod.ExportedFunction(name)
		if f == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("opus: libopus.wasm lacks %s", name)
		}
		in.fn[name] = f
	}
	if in.pcm, err = in.alloc(maxSamples * 2); err == nil {
		if in.pkt, err = in.alloc(maxPacket); err == nil {
			in.errp, err = in.alloc(4)
		}
	}
	if err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

func (in *instance) alloc(n int) (uint32, error) {
	p, err := in.call("buf_alloc", uint64(n))
	if err == nil && p == 0 {
		err = fmt.Errorf("opus: out of memory in libopus.wasm")
	}
	return uint32(p), err
}

// call runs an exported function and returns its int result (0 when none).
// CallWithStack reuses one stack, so a call does not allocate.
func (in *instance) call(name string, args ...uint64) (int32, error) {
	f := in.fn[name]
	copy(in.stack, args)
	if err := f.CallWithStack(context.Background(), in.stack); err != nil {
		return 0, fmt.Errorf("opus: %s: %w", name, err)
	}
	if len(f.Definition().ResultTypes()) == 0 {
		return 0, nil
	}
	return int32(uint32(in.stack[0])), nil
}

func (in *instance) close() {
	if in.mod != nil {
		in.mod.Close(context.Background())
		in.mod = nil
	}
}

// writePCM copies samples into the instance's sample buffer.
func (in *instance) writePCM(pcm []int16) bool {
	b, ok := in.mem.Read(in.pcm, uint32(len(pcm)*2))
	if !ok {
		return false
	}
	for i, s := range pcm {
		b[2*i] = byte(s)
		b[2*i+1] = byte(uint16(s) >> 8)
	}
	return true
}

// readPCM copies n samples out of the instance's sample buffer.
func (in *instance) readPCM(pcm []int16) bool {
	b, ok := in.mem.Read(in.pcm, uint32(len(pcm)*2))
	if !ok {
		return false
	}
	for i := range pcm {
		pcm[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
	}
	return true
}

// libopus error codes (opus_defines.h).
var errText = map[int32]string{
	-1: "bad argument", -2: "buffer too small", -3: "internal error",
	-4: "invalid packet", -5: "unimplemented", -6: "invalid state", -7: "allocation failed",
}

// Error is an error code libopus returned.
type Error int32

func (e Error) Error() string {
	if s, ok := errText[int32(e)]; ok {
		return "opus: " + s
	}
	return fmt.Sprintf("opus: error %d", int32(e))
}
