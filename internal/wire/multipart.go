package wire

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
)

// A multipart/form-data body (reference 04 "上传会议文件": the file travels
// as multipart/form-data) is read in two stages, so that no large body is
// read before the caller is known (docs/api.md "Limits"):
//
//  1. ReadArgs reads the text parts up to the first file part, at most
//     maxBody bytes of them: account_token and the other form fields.
//  2. After authentication, ReadFiles reads the rest: file parts are
//     streamed to temporary files on disk, never held in memory, and text
//     parts after them join Form. Close removes the temporary files.

// File is one file part of a multipart/form-data body, kept on disk.
type File struct {
	Filename string // the client's file name, as sent
	Size     int64  // bytes of content
	path     string
}

// Open opens the file's content for reading.
func (f *File) Open() (io.ReadCloser, error) { return os.Open(f.path) }

// pendingParts is a multipart body whose first file part is not read yet.
type pendingParts struct {
	mr    *multipart.Reader
	part  *multipart.Part // the first file part
	body  *limitedReader
	text  int64 // text bytes still allowed
	limit int64 // the body limit of stage 1
}

// readMultipart is stage 1: the text parts before the first file part.
func readMultipart(r *http.Request, a *Args, boundary string, maxText int64) (*Args, error) {
	if boundary == "" {
		return nil, Errorf(CodeIllegalBody, "multipart/form-data body without a boundary")
	}
	if r.ContentLength > MaxUploadBody {
		return nil, Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", int64(MaxUploadBody))
	}
	if a.Form == nil {
		a.Form = url.Values{}
	}
	body := &limitedReader{r: r.Body, left: MaxUploadBody}
	p := &pendingParts{mr: multipart.NewReader(body, boundary), body: body, text: maxText, limit: maxText}
	for {
		part, err := p.mr.NextPart()
		switch {
		case err == io.EOF:
			return a, a.decodeParams()
		case body.over:
			return nil, Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", int64(MaxUploadBody))
		case err != nil && body.read == 0:
			return a, nil // an empty body carries no parameters
		case err != nil:
			return nil, Errorf(CodeIllegalBody, "malformed multipart/form-data body: %v", err)
		}
		if part.FileName() != "" {
			p.part = part
			a.rest = p
			return a, a.decodeParams()
		}
		if err := p.readText(a, part); err != nil {
			return nil, err
		}
	}
}

// readText adds a text part to a.Form, within the text budget.
func (p *pendingParts) readText(a *Args, part *multipart.Part) error {
	b, err := io.ReadAll(io.LimitReader(part, p.text+1))
	switch {
	case p.body.over:
		return Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", int64(MaxUploadBody))
	case int64(len(b)) > p.text:
		return Errorf(CodeBodyTooLarge, "the text parts of the multipart/form-data body exceed %d bytes", p.limit)
	case err != nil:
		return Errorf(CodeIllegalBody, "malformed multipart/form-data body: %v", err)
	}
	p.text -= int64(len(b))
	if name := part.FormName(); name != "" {
		a.Form[name] = append(a.Form[name], string(b))
	}
	return nil
}

// PendingFiles tells whether the body has file parts that ReadFiles has
// not read.
func (a *Args) PendingFiles() bool { return a.rest != nil }

// ReadFiles is stage 2: it reads the rest of a multipart body, streaming
// each file part to a new temporary file in dir, the whole body being at
// most limit bytes (90413 beyond). With dir "" the file parts are read and
// dropped (an endpoint that takes no file), and the whole body may not
// exceed the text limit. Text parts after the files join Form.
func (a *Args) ReadFiles(dir string, limit int64) error {
	p := a.rest
	if p == nil {
		return nil
	}
	a.rest = nil
	if dir == "" {
		limit = p.limit
	}
	tooLarge := func() error { return Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", limit) }
	if p.body.read > limit {
		return tooLarge()
	}
	p.body.left = min(p.body.left, limit-p.body.read)
	part := p.part
	for {
		if part.FileName() == "" {
			if err := p.readText(a, part); err != nil {
				return err
			}
		} else if err := a.saveFile(dir, part); err != nil {
			if p.body.over {
				return tooLarge()
			}
			return err
		}
		var err error
		part, err = p.mr.NextPart()
		switch {
		case err == io.EOF:
			return a.decodeParams()
		case p.body.over:
			return tooLarge()
		case err != nil:
			return Errorf(CodeIllegalBody, "malformed multipart/form-data body: %v", err)
		}
	}
}

// saveFile streams a file part to a temporary file in dir (dropping it
// when dir is "").
func (a *Args) saveFile(dir string, part *multipart.Part) error {
	if dir == "" {
		if _, err := io.Copy(io.Discard, part); err != nil {
			return Errorf(CodeIllegalBody, "malformed multipart/form-data body: %v", err)
		}
		return nil
	}
	f, err := os.CreateTemp(dir, ".confer-upload-*")
	if err != nil {
		return err
	}
	file := &File{Filename: part.FileName(), path: f.Name()}
	name := part.FormName()
	if a.Files == nil {
		a.Files = map[string][]*File{}
	}
	a.Files[name] = append(a.Files[name], file) // Close removes it, whatever happens next
	a.Form[name] = append(a.Form[name], file.Filename)
	file.Size, err = io.Copy(f, part)
	if cerr := f.Close(); err == nil && cerr != nil {
		return cerr
	}
	if err != nil {
		var we *Error
		if errors.As(err, &we) {
			return err
		}
		return Errorf(CodeIllegalBody, "malformed multipart/form-data body: %v", err)
	}
	return nil
}

// Close removes the temporary files of the request's file parts.
func (a *Args) Close() {
	for _, fs := range a.Files {
		for _, f := range fs {
			os.Remove(f.path)
		}
	}
}
