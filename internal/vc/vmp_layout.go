package vc

import (
	"fmt"

	"github.com/confer-platform/confer/internal/wire"
)

// Picture-composition layout styles and their panes (reference
// A2-vmp-layout-styles.md, "画面合成风格"; 61 to 63 from 5.2.0.2.0, seed
// 001). Each style shows a fixed number of pictures; the composition
// channels (chn_idx) of a style run from 0 to panes-1.
var vmpLayoutPanes = map[int]int{
	1:  1,  // 一画面
	2:  2,  // 二画面 (等大)
	3:  2,  // 二画面 (一大一小右下)
	61: 2,  // 二画面 (一大一小右上)
	62: 2,  // 二画面 (一大一小左上)
	63: 2,  // 二画面 (一大一小左下)
	23: 3,  // 三画面 (一左二右)
	4:  3,  // 三画面 (一上二下)
	5:  4,  // 四画面
	35: 5,  // 五画面
	6:  6,  // 六画面
	13: 7,  // 七画面
	7:  8,  // 八画面
	8:  9,  // 九画面
	18: 10, // 十画面
	38: 11, // 十一画面
	39: 12, // 十二画面
	19: 13, // 十三画面
	17: 14, // 十四画面
	20: 15, // 十五画面
	11: 16, // 十六画面
	46: 17, // 十七画面
	48: 18, // 十八画面
	51: 19, // 十九画面
	14: 20, // 二十画面
	54: 21, // 二十一画面
	56: 22, // 二十二画面
	59: 24, // 二十四画面
	27: 25, // 二十五画面
}

// vmpPanes returns the panes of a layout; 90400 for a layout of no style
// (the catalogue's enumeration refuses those first).
func vmpPanes(layout int) (int, error) {
	n, ok := vmpLayoutPanes[layout]
	if !ok {
		return 0, wire.InvalidParam("layout", fmt.Sprintf("%d is not a layout style of reference A2", layout))
	}
	return n, nil
}
