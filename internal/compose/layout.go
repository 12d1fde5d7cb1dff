package compose

import "image"

// Rect is a pane of a layout as fractions of the picture (0..1).
type Rect struct{ X, Y, W, H float64 }

// Layouts of the picture composition (reference A2-vmp-layout-styles.md,
// "画面合成风格"): the panes of each style by channel index (chn_idx). The
// reference shows the styles as pictures; the geometry here follows them:
// equal grids, one large picture with a small one inset (2, 3, 61 to 63),
// one large picture with the others along the right and the bottom (6, 7),
// two large pictures between rows of small ones (18), and for the other
// counts rows of equal panes, the first rows holding the fewer.
var layouts = map[int][]Rect{
	1:  grid(1, 1),
	2:  {{0, 0.25, 0.5, 0.5}, {0.5, 0.25, 0.5, 0.5}},
	3:  {{0, 0, 1, 1}, {0.75, 0.75, 0.25, 0.25}},
	61: {{0, 0, 1, 1}, {0.75, 0, 0.25, 0.25}},
	62: {{0, 0, 1, 1}, {0, 0, 0.25, 0.25}},
	63: {{0, 0, 1, 1}, {0, 0.75, 0.25, 0.25}},
	23: {{0, 0, 0.5, 1}, {0.5, 0, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}},
	4:  {{0.25, 0, 0.5, 0.5}, {0, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}},
	5:  grid(2, 2),
	35: rows(2, 3),
	6:  largeCorner(3),
	13: rows(3, 4),
	7:  largeCorner(4),
	8:  grid(3, 3),
	18: twoLarge(),
	38: rows(3, 4, 4),
	39: grid(4, 3),
	19: rows(4, 4, 5),
	17: rows(4, 5, 5),
	20: grid(5, 3),
	11: grid(4, 4),
	46: rows(4, 4, 4, 5),
	48: rows(4, 4, 5, 5),
	51: rows(4, 5, 5, 5),
	14: grid(5, 4),
	54: rows(4, 4, 4, 4, 5),
	56: rows(4, 4, 4, 5, 5),
	59: rows(4, 5, 5, 5, 5),
	27: grid(5, 5),
}

// Panes returns the panes of a layout style, nil for a style the
// reference does not have.
func Panes(style int) []Rect { return layouts[style] }

// grid is cols×rows equal panes, row by row.
func grid(cols, rowsN int) []Rect {
	var out []Rect
	for r := 0; r < rowsN; r++ {
		for c := 0; c < cols; c++ {
			out = append(out, Rect{float64(c) / float64(cols), float64(r) / float64(rowsN), 1 / float64(cols), 1 / float64(rowsN)})
		}
	}
	return out
}

// rows is rows of equal panes, counts[i] in row i.
func rows(counts ...int) []Rect {
	var out []Rect
	h := 1 / float64(len(counts))
	for r, n := range counts {
		for c := 0; c < n; c++ {
			out = append(out, Rect{float64(c) / float64(n), float64(r) * h, 1 / float64(n), h})
		}
	}
	return out
}

// largeCorner is an n×n grid whose top-left (n-1)×(n-1) is pane 0; the
// right column holds 1.. from the top, the bottom row the rest from the
// right (A2 styles 6 and 7: "0 1 2 / 5 4 3").
func largeCorner(n int) []Rect {
	u := 1 / float64(n)
	out := []Rect{{0, 0, u * float64(n-1), u * float64(n-1)}}
	for r := 0; r < n-1; r++ {
		out = append(out, Rect{u * float64(n-1), u * float64(r), u, u})
	}
	for c := n - 1; c >= 0; c-- {
		out = append(out, Rect{u * float64(c), u * float64(n-1), u, u})
	}
	return out
}

// twoLarge is A2 style 18: panes 0 and 1 large in the middle, 2..5 above,
// 6..9 below.
func twoLarge() []Rect {
	out := []Rect{{0, 0.25, 0.5, 0.5}, {0.5, 0.25, 0.5, 0.5}}
	for c := 0; c < 4; c++ {
		out = append(out, Rect{float64(c) / 4, 0, 0.25, 0.25})
	}
	for c := 0; c < 4; c++ {
		out = append(out, Rect{float64(c) / 4, 0.75, 0.25, 0.25})
	}
	return out
}

// Pixels is r on a w×h picture, on even coordinates (I420's chroma is
// sampled 2×2).
func (r Rect) Pixels(w, h int) image.Rectangle {
	even := func(v float64) int { return int(v/2+0.5) * 2 }
	return image.Rect(even(r.X*float64(w)), even(r.Y*float64(h)), even((r.X+r.W)*float64(w)), even((r.Y+r.H)*float64(h)))
}

// covers tells whether the panes of a layout tile a w×h picture exactly
// (no gap, no overlap): then nothing needs the black background.
func covers(style, w, h int) bool {
	area := 0
	panes := Panes(style)
	for i, r := range panes {
		px := r.Pixels(w, h)
		area += px.Dx() * px.Dy()
		for _, o := range panes[:i] {
			if px.Overlaps(o.Pixels(w, h)) {
				return false
			}
		}
	}
	return len(panes) > 0 && area == w*h
}
