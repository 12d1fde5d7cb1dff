package program

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/model"
)

// The file of a program (docs/recording.md): a recording made with media
// is a WebM or Matroska file under the recordings folder, named in the
// program's document by its path relative to that folder
// ("<domain moid>/<gid>.webm"). Programs recorded without media (the
// simulated plane of --no-rtc, or before this release) have none.

// FileInfo is what a recording's file holds.
type FileInfo struct {
	Rel        string // slash-separated, relative to the recordings folder
	Bytes      int64
	Duration   time.Duration
	Width      int
	Height     int
	VideoCodec string
	AudioCodec string
	Container  string // "webm" or "matroska"
}

// RelativePath is the relativepath a program's files show (reference 09
// prgdetail.relativepath): where the download is served.
const RelativePath = "/recordings/"

// SetFile writes a file's figures into a program's document: duration and
// size are the file's from then on.
func SetFile(p *Program, gid int, f FileInfo) {
	doc := &p.Doc
	suffix := "webm"
	if f.Container == "matroska" {
		suffix = "mkv"
	}
	secs := int((f.Duration + time.Second/2) / time.Second)
	doc.File, doc.Size, doc.Duration, doc.DurationMs = model.Some(f.Rel), model.Some(f.Bytes), model.Some(secs), model.Some(f.Duration.Milliseconds())
	doc.Width, doc.Height, doc.VideoCodec, doc.AudioCodec = model.Some(f.Width), model.Some(f.Height), model.Some(f.VideoCodec), model.Some(f.AudioCodec)
	doc.Container, doc.Suffix = model.Some(f.Container), model.Some(suffix)
	doc.forget("file", "size", "duration", "duration_ms", "width", "height", "video_codec", "audio_codec", "container", "suffix")
	SetFiles(p, FileEntry{Prgid: gid, Prgtype: suffix, Relativepath: RelativePath})
	setAll(doc, secs, f.Bytes)
	doc.RecordedMs = model.Opt[int64]{} // the length is the file's, not the clock's
	doc.forget("recorded_ms")
}

// setAll sets prgallduration and prgallsize, the length and size the
// program list shows, when the document has them (a recording room's).
func setAll(doc *Doc, secs int, bytes int64) {
	if doc.has(doc.Prgallduration.Set, "prgallduration") {
		doc.Prgallduration, doc.Prgallsize = model.Some(secs), model.Some(bytes)
		doc.forget("prgallduration", "prgallsize")
	}
}

// Part is an element of a program's parts (SetParts), its members in
// name order as the map it replaced was stored.
type Part struct {
	DurationMs int64  `json:"duration_ms"`
	File       string `json:"file"`
	Gap        bool   `json:"gap"`
	Size       int64  `json:"size"`
}

// ErrNoFile is a program without a file (recorded without media), or
// one whose path is not inside the recordings folder.
var ErrNoFile = errors.New("program: no file")

// Rel returns the program's file relative to the recordings folder.
func (p Program) Rel() (string, error) {
	rel := strOf(p.Doc, p.Doc.File, "file")
	if rel == "" {
		return "", ErrNoFile
	}
	clean := path.Clean(rel)
	if path.IsAbs(clean) || clean == "." || strings.HasPrefix(clean, "../") || clean == ".." || strings.Contains(clean, "\\") {
		return "", ErrNoFile
	}
	return clean, nil
}

// FilePath returns the program's file inside the recordings folder dir.
func (p Program) FilePath(dir string) (string, error) {
	if dir == "" {
		return "", ErrNoFile
	}
	rel, err := p.Rel()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}

// SetParts writes the figures of a program recorded in parts (a failover
// moved the recording to another node: docs/recording.md "Several
// nodes"). One part is SetFile. With several, the first part with a file
// is the program's file (the download), duration and size are the
// parts' sums, and parts lists each part in order: {"file", "size",
// "duration_ms", "gap"} (gap: its file could not be read when the
// recording stopped; its length is the time it ran).
func SetParts(p *Program, gid int, parts []FileInfo) {
	if len(parts) == 0 {
		return
	}
	if len(parts) == 1 {
		SetFile(p, gid, parts[0])
		return
	}
	var total time.Duration
	var bytes int64
	list := make([]Part, 0, len(parts))
	first := -1
	for i, f := range parts {
		gap := f.Bytes == 0
		if !gap && first < 0 {
			first = i
		}
		total += f.Duration
		bytes += f.Bytes
		list = append(list, Part{File: f.Rel, Size: f.Bytes, DurationMs: f.Duration.Milliseconds(), Gap: gap})
	}
	if first < 0 {
		first = 0
	}
	SetFile(p, gid, parts[first])
	doc := &p.Doc
	secs := int((total + time.Second/2) / time.Second)
	doc.Size, doc.Duration, doc.DurationMs, doc.Parts = model.Some(bytes), model.Some(secs), model.Some(total.Milliseconds()), list
	doc.forget("parts")
	setAll(doc, secs, bytes)
}
