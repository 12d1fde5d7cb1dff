package compose

import "image"

// Frame is a picture in I420 (YUV 4:2:0 planar, BT.601 limited range):
// W×H luma samples, then the U and V planes at half width and height. W
// and H are even.
type Frame struct {
	W, H    int
	Y, U, V []byte
}

// NewFrame returns a black w×h frame (w and h rounded up to even).
func NewFrame(w, h int) *Frame {
	w, h = (w+1)&^1, (h+1)&^1
	buf := make([]byte, w*h*3/2)
	f := &Frame{W: w, H: h, Y: buf[:w*h], U: buf[w*h : w*h*5/4], V: buf[w*h*5/4:]}
	f.Fill(image.Rect(0, 0, w, h), Black)
	return f
}

// Bytes is the frame's three planes one after the other (they share one
// buffer when the frame was made by NewFrame or ReadFrame).
func (f *Frame) Bytes() []byte {
	return f.Y[:len(f.Y)+len(f.U)+len(f.V)]
}

// YUV is a colour in BT.601 limited range.
type YUV struct{ Y, U, V uint8 }

// Colours the compositor draws with.
var (
	Black       = YUV{16, 128, 128}
	White       = YUV{235, 128, 128}
	Placeholder = YUV{40, 128, 128} // a pane without a picture
	LabelBack   = YUV{16, 128, 128}
)

// RGB converts 8-bit RGB to BT.601 limited range YUV.
func RGB(r, g, b uint8) YUV {
	R, G, B := int(r), int(g), int(b)
	y := (66*R+129*G+25*B+128)>>8 + 16
	u := (-38*R-74*G+112*B+128)>>8 + 128
	v := (112*R-94*G-18*B+128)>>8 + 128
	return YUV{uint8(y), uint8(u), uint8(v)}
}

// Fill paints r (even coordinates) with c.
func (f *Frame) Fill(r image.Rectangle, c YUV) {
	r = r.Intersect(image.Rect(0, 0, f.W, f.H))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := f.Y[y*f.W+r.Min.X : y*f.W+r.Max.X]
		for i := range row {
			row[i] = c.Y
		}
	}
	cw := f.W / 2
	for y := r.Min.Y / 2; y < r.Max.Y/2; y++ {
		u := f.U[y*cw+r.Min.X/2 : y*cw+r.Max.X/2]
		v := f.V[y*cw+r.Min.X/2 : y*cw+r.Max.X/2]
		for i := range u {
			u[i], v[i] = c.U, c.V
		}
	}
}

// Draw scales src into r of f (even coordinates), by nearest sample;
// same-size pictures are copied row by row.
func (f *Frame) Draw(r image.Rectangle, src *Frame) {
	r = r.Intersect(image.Rect(0, 0, f.W, f.H))
	if r.Empty() || src == nil || src.W == 0 || src.H == 0 {
		return
	}
	scalePlane(f.Y, f.W, r, src.Y, src.W, src.H)
	cr := image.Rect(r.Min.X/2, r.Min.Y/2, r.Max.X/2, r.Max.Y/2)
	scalePlane(f.U, f.W/2, cr, src.U, src.W/2, src.H/2)
	scalePlane(f.V, f.W/2, cr, src.V, src.W/2, src.H/2)
}

// scalePlane scales a sw×sh plane into r of a plane of stride dw.
func scalePlane(dst []byte, dw int, r image.Rectangle, src []byte, sw, sh int) {
	w, h := r.Dx(), r.Dy()
	if w == sw && h == sh {
		for y := 0; y < h; y++ {
			copy(dst[(r.Min.Y+y)*dw+r.Min.X:(r.Min.Y+y)*dw+r.Max.X], src[y*sw:y*sw+sw])
		}
		return
	}
	xs := make([]int, w)
	for x := range xs {
		xs[x] = (2*x + 1) * sw / (2 * w)
	}
	for y := 0; y < h; y++ {
		sy := (2*y + 1) * sh / (2 * h)
		srow := src[sy*sw : sy*sw+sw]
		drow := dst[(r.Min.Y+y)*dw+r.Min.X : (r.Min.Y+y)*dw+r.Max.X]
		for x, sx := range xs {
			drow[x] = srow[sx]
		}
	}
}
