// The picture-composition layout styles of reference A2 ("画面合成风格"),
// drawn. A2 names each style and the number of its pictures (panes); the
// pane order is the composition channel (chn_idx). A style is either a
// grid (cols × rows, some panes spanning cells, placed in reading order)
// or explicit rectangles in percent, for the overlapping and centred ones.
import { h } from './ui.js';

const g = (cols, rows, spans = {}) => ({ cols, rows, spans });
const pip = (x, y) => ({ rects: [[0, 0, 100, 100], [x, y, 33, 33]] });

export const LAYOUTS = [
  { style: 1, name: 'one', panes: 1, ...g(1, 1) },
  { style: 2, name: 'two, equal', panes: 2, rects: [[0, 25, 50, 50], [50, 25, 50, 50]] },
  { style: 62, name: 'two, one large, one small top left', panes: 2, ...pip(0, 0) },
  { style: 63, name: 'two, one large, one small bottom left', panes: 2, ...pip(0, 67) },
  { style: 3, name: 'two, one large, one small bottom right', panes: 2, ...pip(67, 67) },
  { style: 61, name: 'two, one large, one small top right', panes: 2, ...pip(67, 0) },
  { style: 23, name: 'three, one left two right', panes: 3, ...g(2, 2, { 0: [1, 2] }) },
  { style: 4, name: 'three, one top two bottom', panes: 3, rects: [[25, 0, 50, 50], [0, 50, 50, 50], [50, 50, 50, 50]] },
  { style: 5, name: 'four', panes: 4, ...g(2, 2) },
  { style: 35, name: 'five', panes: 5, rects: [[0, 0, 50, 50], [50, 0, 50, 50], [0, 50, 33.34, 50], [33.33, 50, 33.34, 50], [66.66, 50, 33.34, 50]] },
  { style: 6, name: 'six', panes: 6, ...g(3, 3, { 0: [2, 2] }) },
  { style: 13, name: 'seven', panes: 7, ...g(4, 4, { 0: [2, 2], 1: [2, 2], 2: [2, 2] }) },
  { style: 7, name: 'eight', panes: 8, ...g(4, 4, { 0: [3, 3] }) },
  { style: 8, name: 'nine', panes: 9, ...g(3, 3) },
  { style: 18, name: 'ten', panes: 10, ...g(4, 4, { 0: [2, 2], 1: [2, 2] }) },
  { style: 38, name: 'eleven', panes: 11, ...g(4, 3, { 0: [2, 1] }) },
  { style: 39, name: 'twelve', panes: 12, ...g(4, 3) },
  { style: 19, name: 'thirteen', panes: 13, ...g(4, 4, { 0: [2, 2] }) },
  { style: 17, name: 'fourteen', panes: 14, ...g(4, 4, { 0: [2, 1], 1: [2, 1] }) },
  { style: 20, name: 'fifteen', panes: 15, ...g(4, 4, { 0: [2, 1] }) },
  { style: 11, name: 'sixteen', panes: 16, ...g(4, 4) },
  { style: 46, name: 'seventeen', panes: 17, ...g(5, 4, { 0: [2, 1], 1: [2, 1], 2: [2, 1] }) },
  { style: 48, name: 'eighteen', panes: 18, ...g(5, 4, { 0: [2, 1], 1: [2, 1] }) },
  { style: 51, name: 'nineteen', panes: 19, ...g(5, 4, { 0: [2, 1] }) },
  { style: 14, name: 'twenty', panes: 20, ...g(5, 4) },
  { style: 54, name: 'twenty-one', panes: 21, ...g(6, 4, { 0: [2, 1], 1: [2, 1], 2: [2, 1] }) },
  { style: 56, name: 'twenty-two', panes: 22, ...g(5, 5, { 0: [2, 2] }) },
  { style: 59, name: 'twenty-four', panes: 24, ...g(6, 4) },
  { style: 27, name: 'twenty-five', panes: 25, ...g(5, 5) },
];

export const layoutOf = (style) => LAYOUTS.find((l) => l.style === Number(style));

// picture draws a layout: a box of panes, pane(i) giving each pane's
// content and attributes.
export function picture(layout, pane = () => ({}), cls = '') {
  const box = h('div', { class: `layout ${cls} ${layout.rects ? 'rects' : 'grid'}` });
  if (!layout.rects) {
    box.style.gridTemplateColumns = `repeat(${layout.cols}, 1fr)`;
    box.style.gridTemplateRows = `repeat(${layout.rows}, 1fr)`;
  }
  for (let i = 0; i < layout.panes; i++) {
    const { content = '', ...attrs } = pane(i);
    const el = h('div', { class: 'pane', ...attrs }, content);
    el.dataset.chn = i;
    if (layout.rects) {
      const [x, y, w, hh] = layout.rects[i];
      Object.assign(el.style, { left: `${x}%`, top: `${y}%`, width: `${w}%`, height: `${hh}%`, zIndex: i });
    } else if (layout.spans[i]) {
      el.style.gridColumn = `span ${layout.spans[i][0]}`;
      el.style.gridRow = `span ${layout.spans[i][1]}`;
    }
    box.append(el);
  }
  return box;
}
