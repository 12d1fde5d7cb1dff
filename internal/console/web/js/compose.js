// Picture composition (reference 05 "画面合成"; layouts of A2): choose a
// layout from its picture, drop terminals into its panes (or make a pane
// follow the speaker, the chairman, the poll, voice activation), start,
// change and stop. vmp_id is 1, the conference's composition.
import * as api from './api.js';
import { h, attempt } from './ui.js';
import { LAYOUTS, layoutOf, picture } from './layouts.js';

// Member types of a pane (vc.confs.vmps.create "member_type").
const FOLLOW = { 2: 'follows the speaker', 3: 'follows the chairman', 4: 'follows the poll', 5: 'voice activation', 7: 'follows the content' };

export function compositionPanel(st, base) {
  // The draft: what the operator is arranging, from the running
  // composition until the operator changes it.
  let draft = null;
  let dirty = false;
  const fromRunning = () => ({
    layout: st.vmp?.layout || 5,
    mode: st.vmp?.mode || 1,
    broadcast: st.vmp ? Number(st.vmp.broadcast) : 1,
    panes: new Map((st.vmp?.members || []).map((m) => [Number(m.chn_idx), { member_type: Number(m.member_type), mt_id: m.mt_id || '' }])),
  });

  const nameOf = (mtId) => {
    const m = st.mts.get(mtId);
    return m ? (m.alias || m.e164 || m.ip || m.mt_id) : mtId;
  };

  function params() {
    const members = [];
    for (const [chn, p] of draft.panes) {
      if (chn >= layoutOf(draft.layout).panes) continue;
      members.push(p.member_type === 1 ? { chn_idx: chn, member_type: 1, mt_id: p.mt_id } : { chn_idx: chn, member_type: p.member_type });
    }
    return { mode: draft.mode, layout: draft.layout, broadcast: draft.broadcast, voice_hint: 0, show_mt_name: 1, members: draft.mode === 1 ? members : [] };
  }

  async function apply() {
    const p = { params: params() };
    const ok = st.vmp
      ? await attempt(() => api.post(`${base}/vmps/1`, p), 'Composition changed.')
      : await attempt(() => api.post(`${base}/vmps`, p), 'Composition started.');
    if (ok !== undefined) {
      dirty = false;
      st.reload('vmp', 'mts');
    }
  }

  function paneContent(i) {
    const p = draft.panes.get(i);
    const label = !p ? (draft.mode === 1 ? 'drop a terminal' : 'automatic')
      : p.member_type === 1 ? nameOf(p.mt_id) : FOLLOW[p.member_type] || `type ${p.member_type}`;
    const choose = h('select', { 'aria-label': `pane ${i + 1}`, disabled: draft.mode !== 1 },
      h('option', { value: '' }, '—'),
      Object.entries(FOLLOW).map(([v, l]) => h('option', { value: `f${v}`, selected: p?.member_type === Number(v) }, l)),
      [...st.mts.values()].map((m) => h('option', { value: `m${m.mt_id}`, selected: p?.member_type === 1 && p.mt_id === m.mt_id }, nameOf(m.mt_id))));
    choose.addEventListener('change', () => {
      const v = choose.value;
      if (!v) draft.panes.delete(i);
      else if (v[0] === 'f') draft.panes.set(i, { member_type: Number(v.slice(1)) });
      else draft.panes.set(i, { member_type: 1, mt_id: v.slice(1) });
      dirty = true;
      st.render();
    });
    return [h('span', { class: 'pane-no' }, i + 1), h('span', { class: 'pane-label' }, label), choose];
  }

  function render() {
    if (!dirty || !draft) draft = fromRunning();
    const layout = layoutOf(draft.layout) || LAYOUTS[0];
    const big = picture(layout, (i) => ({
      content: paneContent(i),
      ondragover: (e) => { if (draft.mode === 1) { e.preventDefault(); e.currentTarget.classList.add('over'); } },
      ondragleave: (e) => e.currentTarget.classList.remove('over'),
      ondrop: (e) => {
        e.preventDefault();
        const mtId = e.dataTransfer.getData('text/x-mt-id') || e.dataTransfer.getData('text/plain');
        if (!mtId || !st.mts.has(mtId)) return;
        for (const [k, p] of draft.panes) if (p.member_type === 1 && p.mt_id === mtId) draft.panes.delete(k); // one pane a terminal (20826)
        draft.panes.set(i, { member_type: 1, mt_id: mtId });
        dirty = true;
        st.dragging = false; // the drop ends the drag; dragend may not follow a removed source
        st.render();
      },
    }), 'big');
    const gallery = h('div', { class: 'gallery', role: 'radiogroup', 'aria-label': 'layout' }, LAYOUTS.map((l) => {
      const pressed = l.style === draft.layout;
      return h('button', {
        type: 'button', role: 'radio', 'aria-checked': String(pressed), class: 'thumb', title: `${l.style}: ${l.name}`,
        'aria-label': `layout ${l.style}, ${l.name}`, dataset: { layout: l.style },
        onclick: () => { draft.layout = l.style; dirty = true; st.render(); },
      }, picture(l, () => ({}), 'small'));
    }));
    const mode = h('select', { 'aria-label': 'composition mode' },
      h('option', { value: 1, selected: draft.mode === 1 }, 'custom'), h('option', { value: 2, selected: draft.mode === 2 }, 'automatic'));
    mode.addEventListener('change', () => { draft.mode = Number(mode.value); dirty = true; st.render(); });
    const bc = h('input', { type: 'checkbox', id: 'vmp-broadcast', checked: draft.broadcast === 1 });
    bc.addEventListener('change', () => { draft.broadcast = bc.checked ? 1 : 0; dirty = true; });
    return h('section', { class: 'panel compose', 'aria-label': 'picture composition' },
      h('h2', {}, 'Picture composition ', h('small', { id: 'vmp-state' }, st.vmp ? `running, layout ${st.vmp.layout}` : 'not running')),
      gallery, big,
      h('div', { class: 'row' }, mode, h('label', {}, bc, ' broadcast'),
        h('button', { id: 'vmp-apply', onclick: apply }, st.vmp ? 'Apply' : 'Start'),
        st.vmp && h('button', {
          onclick: async () => {
            dirty = false;
            if (await attempt(() => api.del(`${base}/vmps/1`), 'Composition stopped.') !== undefined) st.reload('vmp', 'mts');
          },
        }, 'Stop'),
        dirty && h('button', { onclick: () => { dirty = false; st.render(); } }, 'Discard')));
  }
  return { render };
}
