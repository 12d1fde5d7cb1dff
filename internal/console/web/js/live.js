// A running conference, live (reference 05 "会议控制"): terminals and the
// conference's controls, updated through push on the conference's
// channels (/userdomains/{d}/confs/{conf_id}/**, docs/push.md).
import * as api from './api.js';
import { h, message, attempt, ask } from './ui.js';
import { endConf, delayConf, members as parseMembers } from './confs.js';
import { compositionPanel } from './compose.js';
import { mixPanel, pollPanel, recordPanel } from './features.js';
import { previewPanel } from './preview.js';
import { qualityPanel } from './quality.js';

// The conference state the page shows; the panels read it and re-render
// when render() runs.
function newState(id) {
  return { id, conf: {}, mts: new Map(), seq: 0, touched: new Map(), busy: new Set(), speaker: '', chairman: '', dual: '', vad: {}, vmp: null, mix: null, poll: null, recorders: [] };
}

// optional reads a feature that may not run (20823 and the like): null then.
async function optional(f) {
  try { return await f(); } catch (e) { if (e.sessionEnded) throw e; return null; }
}

export async function livePage(ctx, id) {
  const st = newState(id);
  const base = `/api/v1/vc/confs/${id}`;
  const P = (p) => ({ params: p });
  const act = (what, f) => attempt(f, what);

  // Reading a part of the state again races with push: a reply may be
  // older than a message that came before it. So a part shows only its
  // latest read, and the terminal list keeps each terminal that a message
  // changed after the read began (st.touched).
  const fetchers = {
    conf: async () => { const v = await api.get(base); return () => { st.conf = v; }; },
    mts: async () => {
      const since = st.seq;
      const r = await api.get(`${base}/mts`);
      return () => {
        const fresh = new Map((r.mts || []).map((m) => [m.mt_id, m]));
        for (const [mtId, seq] of st.touched) {
          if (seq <= since) continue;
          if (st.mts.has(mtId)) fresh.set(mtId, st.mts.get(mtId));
          else fresh.delete(mtId);
        }
        st.mts = fresh;
      };
    },
    speaker: async () => { const v = (await api.get(`${base}/speaker`)).mt_id || ''; return () => { st.speaker = v; }; },
    chairman: async () => { const v = (await api.get(`${base}/chairman`)).mt_id || ''; return () => { st.chairman = v; }; },
    dual: async () => { const v = (await optional(() => api.get(`${base}/dualstream`)))?.mt_id || ''; return () => { st.dual = v; }; },
    vad: async () => { const v = (await optional(() => api.get(`${base}/vad`))) || {}; return () => { st.vad = v; }; },
    vmp: async () => { const v = await optional(() => api.get(`${base}/vmps/1`)); return () => { st.vmp = v; }; },
    mix: async () => { const v = await optional(() => api.get(`${base}/mixs/1`)); return () => { st.mix = v; }; },
    poll: async () => { const v = await optional(() => api.get(`${base}/poll`)); return () => { st.poll = v; }; },
    recorders: async () => {
      const v = (await optional(() => api.get(`${base}/recorders`)))?.recorders || [];
      return () => { st.recorders = v; };
    },
  };
  const reads = {};
  const loaders = Object.fromEntries(Object.entries(fetchers).map(([k, f]) => [k, async () => {
    const n = (reads[k] = (reads[k] || 0) + 1);
    const apply = await f();
    if (reads[k] === n) apply();
  }]));
  try {
    await loaders.conf();
  } catch (e) {
    const el = h('section', { class: 'page' }, h('h1', {}, `Conference ${id}`),
      h('p', { class: 'msg error', role: 'alert' }, e.message), h('a', { href: '#/confs' }, 'Back to the running conferences'));
    return { el };
  }
  await Promise.all(Object.entries(loaders).filter(([k]) => k !== 'conf').map(([, f]) => attempt(f)));

  const head = h('div', { class: 'page-head' });
  const termBox = h('div', { class: 'terminals' });
  const side = h('div', { class: 'side' });
  // The preview keeps its connection across renders: it sits outside them,
  // below the panels (the composition stays next to the terminal list).
  const preview = previewPanel(id);
  const quality = qualityPanel(id); // polls on its own, outside the renders (quality.js)
  const el = h('section', { class: 'page live', 'aria-label': `conference ${id}` }, head,
    h('div', { class: 'live-grid' }, h('div', {}, addForm(), termBox, quality.el), h('div', { class: 'side' }, side, preview.el)));

  function addForm() {
    const input = h('input', { id: 'add-mt', placeholder: 'E.164 number or IP address', 'aria-label': 'terminal to add' });
    const book = h('select', { id: 'add-book', 'aria-label': 'address book' }, h('option', { value: '' }, 'address book…'));
    // The address book: accounts of the domain with an E.164 number (amc).
    // An account that may not read it (not an administrator) has none.
    api.get('/api/v1/amc/accounts', { start: 0, count: 0 }).then((r) => {
      for (const a of r.accounts || []) {
        if (a.e164) book.append(h('option', { value: a.e164 }, `${a.name || a.account} (${a.e164})`));
      }
    }, () => book.remove());
    book.addEventListener('change', () => { if (book.value) input.value = book.value; });
    // The protocol the terminal is called with: SIP by default, as on the
    // New conference form (H.323 is simulated only: docs/sip.md).
    const proto = h('select', { id: 'add-protocol', 'aria-label': 'call over' }, h('option', { value: 1 }, 'SIP'), h('option', { value: 0 }, 'H.323'));
    return h('form', {
      class: 'add', 'aria-label': 'add terminals',
      onsubmit: async (e) => {
        e.preventDefault();
        const mts = parseMembers(input.value, Number(proto.value)).map((m) => ({ account: m.account, account_type: m.account_type, bitrate: st.conf.bitrate || 2048, protocol: m.protocol }));
        if (!mts.length) return;
        if (await act(`Calling ${input.value}.`, () => api.post(`${base}/mts`, P({ mts }))) !== undefined) input.value = '';
      },
    }, input, proto, book, h('button', { id: 'add-button' }, 'Add and call'));
  }

  const one = (m) => P({ mts: [{ mt_id: m.mt_id }] });
  function termRow(m) {
    const name = m.alias || m.e164 || m.ip || m.account || m.mt_id;
    const on = Number(m.online) === 1;
    const badges = [
      h('span', { class: `badge ${on ? 'on' : 'off'}`, dataset: { state: on ? 'online' : 'offline' } }, on ? 'online' : 'offline'),
      Number(m.mute) === 1 && h('span', { class: 'badge warn', dataset: { state: 'muted' } }, 'mic muted'),
      Number(m.silence) === 1 && h('span', { class: 'badge warn', dataset: { state: 'silenced' } }, 'speaker silenced'),
      st.speaker === m.mt_id && h('span', { class: 'badge role', dataset: { state: 'speaker' } }, 'speaker'),
      st.chairman === m.mt_id && h('span', { class: 'badge role', dataset: { state: 'chairman' } }, 'chairman'),
      Number(m.dual) === 1 && h('span', { class: 'badge', dataset: { state: 'dual' } }, 'content'),
      Number(m.vmp) === 1 && h('span', { class: 'badge', dataset: { state: 'vmp' } }, 'in picture'),
      Number(m.mix) === 1 && h('span', { class: 'badge', dataset: { state: 'mix' } }, 'in mix'),
      Number(m.rec) === 1 && h('span', { class: 'badge', dataset: { state: 'rec' } }, 'recording'),
    ];
    const mt = `${base}/mts/${m.mt_id}`;
    // A terminal's controls wait for the reply of its pending action (its
    // push message can come first).
    const busy = st.busy.has(m.mt_id);
    const b = (label, title, f, cls) => h('button', {
      class: cls, title, 'aria-label': `${title} ${name}`, disabled: busy,
      onclick: async () => {
        st.busy.add(m.mt_id);
        render();
        try { await f(); } finally { st.busy.delete(m.mt_id); render(); }
      },
    }, label);
    const row = h('tr', { draggable: 'true', dataset: { mt: m.mt_id }, class: on ? 'online' : 'offline' },
      h('td', { class: 'mt-name' }, h('span', { class: 'grip', 'aria-hidden': 'true' }, '⠿'), name,
        h('small', {}, [m.e164, m.ip].filter(Boolean).join(' · '))),
      h('td', { class: 'mt-state' }, badges),
      h('td', { class: 'actions' },
        on ? b('Hang up', 'hang up', () => act(`Hung up ${name}.`, () => api.del(`${base}/online_mts`, one(m))))
          : b('Call', 'call', () => act(`Calling ${name}.`, () => api.post(`${base}/online_mts`, one(m)))),
        b(Number(m.mute) ? 'Unmute' : 'Mute', Number(m.mute) ? 'unmute' : 'mute',
          () => act(null, () => api.put(`${mt}/mute`, P({ value: Number(m.mute) ? 0 : 1 })))),
        b(Number(m.silence) ? 'Unsilence' : 'Silence', Number(m.silence) ? 'unsilence' : 'silence',
          () => act(null, () => api.put(`${mt}/silence`, P({ value: Number(m.silence) ? 0 : 1 })))),
        b(st.speaker === m.mt_id ? 'Unset speaker' : 'Speaker', 'make speaker',
          () => act(null, () => api.put(`${base}/speaker`, P({ mt_id: st.speaker === m.mt_id ? '' : m.mt_id })))),
        b(st.chairman === m.mt_id ? 'Unset chairman' : 'Chairman', 'make chairman',
          () => act(null, () => api.put(`${base}/chairman`, P({ mt_id: st.chairman === m.mt_id ? '' : m.mt_id })))),
        b(Number(m.dual) ? 'Stop content' : 'Content', 'dual stream from',
          () => act(null, () => (Number(m.dual) ? api.del(`${base}/dualstream`, P({ mt_id: m.mt_id }))
            : api.put(`${base}/dualstream`, P({ mt_id: m.mt_id }))))),
        b('Drop', 'remove', async () => await ask(`Remove ${name} from the conference?`, 'Remove') && act(`Removed ${name}.`, () => api.del(`${base}/mts`, one(m))), 'danger')));
    row.addEventListener('dragstart', (e) => {
      e.dataTransfer.setData('text/x-mt-id', m.mt_id);
      e.dataTransfer.setData('text/plain', m.mt_id);
      e.dataTransfer.effectAllowed = 'copy';
      st.dragging = true;
    });
    // A render during a drag would remove its source and targets: it waits.
    row.addEventListener('dragend', () => {
      st.dragging = false;
      if (st.renderLater) render();
    });
    return row;
  }

  const panels = [compositionPanel(st, base), mixPanel(st, base), pollPanel(st, base), recordPanel(st, base)];

  function renderHead() {
    const c = st.conf;
    const vadOn = Number(st.vad.voice_activity_detection) === 1;
    head.replaceChildren(
      h('h1', {}, `${c.name || ''} `, h('small', {}, c.conf_id || id)),
      h('p', { class: 'meta' }, `started ${String(c.start_time || '').replace('T', ' ').slice(0, 16)}`,
        c.end_time ? ` · ends ${String(c.end_time).replace('T', ' ').slice(0, 16)}` : ' · permanent',
        ` · ${[...st.mts.values()].filter((m) => Number(m.online) === 1).length} of ${st.mts.size} online`),
      h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'conference' },
        h('button', { dataset: { do: 'mute-all' }, onclick: () => act('Everyone muted.', () => api.put(`${base}/mute`, P({ value: 1 }))) }, 'Mute all'),
        h('button', { onclick: () => act('Everyone unmuted.', () => api.put(`${base}/mute`, P({ value: 0 }))) }, 'Unmute all'),
        h('button', { onclick: () => act('Everyone silenced.', () => api.put(`${base}/silence`, P({ value: 1 }))) }, 'Silence all'),
        h('button', { onclick: () => act('Everyone unsilenced.', () => api.put(`${base}/silence`, P({ value: 0 }))) }, 'Unsilence all'),
        h('button', {
          'aria-pressed': String(vadOn), dataset: { do: 'vad' },
          onclick: () => act(null, () => api.put(`${base}/vad`, P({ state: vadOn ? 0 : 1, vacinterval: Number(st.vad.vacinterval) || 5 }))).then(() => st.reload('vad')),
        }, vadOn ? 'Voice activation: on' : 'Voice activation: off'),
        // The join page of the SFU (docs/media.md): the login cookie admits the operator.
        h('a', { class: 'button', id: 'join-conf', href: `/rtc/join/${encodeURIComponent(id)}`, target: '_blank', rel: 'noopener' }, 'Join in the browser'),
        h('button', { dataset: { do: 'delay' }, onclick: () => delayConf(id, () => st.reload('conf')) }, 'Delay'),
        h('button', { class: 'danger', id: 'end-conf', onclick: () => endConf(id, () => ctx.go('#/confs')) }, 'End conference')));
  }

  function renderTerminals() {
    const rows = [...st.mts.values()].sort((a, b) => Number(a.mt_id) - Number(b.mt_id));
    termBox.replaceChildren(rows.length
      ? h('table', { class: 'mts', 'aria-label': 'terminals' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Terminal'), h('th', {}, 'State'), h('th', {}, 'Control'))),
        h('tbody', {}, rows.map(termRow)))
      : h('p', { class: 'empty' }, 'No terminal yet: add one above.'));
  }

  function render() {
    if (st.dragging) { st.renderLater = true; return; }
    st.renderLater = false;
    renderHead();
    renderTerminals();
    side.replaceChildren(...panels.map((p) => p.render()));
  }
  st.render = render;
  // reload reads parts of the state again and shows them (after an action
  // whose push message may come before or after its reply).
  st.reload = (...parts) => Promise.all(parts.map((k) => attempt(loaders[k]))).then(render);
  render();

  // Push: the conference's channels. A terminal's message carries its new
  // state; the others say which part changed, and the page reads it again.
  const part = {
    speaker: 'speaker', chairman: 'chairman', dualstream: 'dual', vad: 'vad', vmps: 'vmp', mixs: 'mix', poll: 'poll', recorders: 'recorders',
  };
  let due = new Set();
  let timer;
  const refresh = () => {
    const parts = [...due];
    due = new Set();
    Promise.all(parts.map((k) => attempt(loaders[k]))).then(render);
  };
  const prefix = `/confs/${id}/`;
  const onMessage = (channel, data) => {
    const rest = channel.slice(channel.indexOf(prefix) + prefix.length);
    if (channel.endsWith(`/confs/${id}`)) {
      if (data.method === 'delete') {
        message(`Conference ${id} has ended.`, 'info');
        ctx.go('#/confs');
        return;
      }
      due.add('conf');
    } else if (rest.startsWith('cascades/0/mts/')) {
      const mtId = rest.split('/')[3];
      st.touched.set(mtId, ++st.seq);
      if (data.method === 'delete') st.mts.delete(mtId);
      else if (data.mt_id) st.mts.set(mtId, { ...st.mts.get(mtId), ...data });
      else due.add('mts');
      due.add('conf');
    } else if (rest === 'mts' && data.method === 'notify') {
      message(`Call to ${data.mt?.account || 'a terminal'} failed (${data.error_code}).`, 'error');
      return;
    } else {
      const k = part[rest.split('/')[0]];
      if (!k) return;
      due.add(k);
      due.add('mts'); // terminal flags (vmp, mix, rec) follow
    }
    render();
    clearTimeout(timer);
    timer = setTimeout(refresh, 100);
  };
  const conn = ctx.push();
  const unsubs = conn ? [conn.subscribe(`/confs/${id}`, onMessage), conn.subscribe(`/confs/${id}/**`, onMessage)] : [];
  // data-live="on" once the server has confirmed both subscriptions: from
  // then on, every change of the conference reaches the page.
  Promise.all(unsubs.map((u) => u.then((f) => f.confirmed))).then((oks) => {
    if (oks.length && oks.every(Boolean)) el.dataset.live = 'on';
  });
  return {
    el,
    cleanup: () => { clearTimeout(timer); preview.stop(); quality.stop(); unsubs.forEach((u) => u.then((f) => f())); },
  };
}
