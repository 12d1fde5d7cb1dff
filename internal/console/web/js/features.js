// Mixing, polls and recording of a running conference (reference 05
// "混音", "轮询", "录像").
import * as api from './api.js';
import { h, attempt, formValues } from './ui.js';

const P = (p) => ({ params: p });
const online = (st) => [...st.mts.values()].filter((m) => Number(m.online) === 1);
const label = (m) => m.alias || m.e164 || m.ip || m.mt_id;

// act runs an action and, when it succeeded, reads the parts again (the
// push message of the change may come before the reply).
const act = (st, parts, f, done) => attempt(f, done).then((r) => { if (r !== undefined) st.reload(...parts, 'mts'); return r; });

export function mixPanel(st, base) {
  return {
    render() {
      const running = st.mix;
      const inMix = new Set((running?.members || []).map((m) => m.mt_id));
      return h('section', { class: 'panel', 'aria-label': 'mixing' },
        h('h2', {}, 'Mixing ', h('small', {}, running ? (Number(running.mode) === 1 ? 'smart mixing' : 'custom mixing') : 'off')),
        running
          ? h('div', { class: 'row' },
            Number(running.mode) === 2 && online(st).map((m) => {
              const box = h('input', { type: 'checkbox', checked: inMix.has(m.mt_id) });
              box.addEventListener('change', () => act(st, ['mix'], () => (box.checked ? api.post : api.del)(`${base}/mixs/1/members`, P({ members: [{ mt_id: m.mt_id }] }))));
              return h('label', {}, box, ` ${label(m)}`);
            }),
            h('button', { dataset: { do: 'stop-mix' }, onclick: () => act(st, ['mix'], () => api.del(`${base}/mixs/1`), 'Mixing stopped.') }, 'Stop mixing'))
          : h('div', { class: 'row' },
            h('button', { dataset: { do: 'smart-mix' }, onclick: () => act(st, ['mix'], () => api.post(`${base}/mixs`, P({ mode: 1, members: [] })), 'Smart mixing started.') }, 'Smart mixing'),
            h('button', { onclick: () => act(st, ['mix'], () => api.post(`${base}/mixs`, P({ mode: 2, members: online(st).map((m) => ({ mt_id: m.mt_id })) })), 'Custom mixing started.') }, 'Mix the online terminals')));
    },
  };
}

export function pollPanel(st, base) {
  return {
    render() {
      const p = st.poll;
      const state = Number(p?.state || 0); // 0 stopped, 1 polling, 2 paused
      const setState = (value, done) => act(st, ['poll'], () => api.put(`${base}/poll/state`, P({ value, mode: Number(p.mode) || 1 })), done);
      if (state !== 0) {
        return h('section', { class: 'panel', 'aria-label': 'poll' },
          h('h2', {}, 'Poll ', h('small', {}, state === 1 ? `on ${p.cur_poll_mt?.mt_id ? label(st.mts.get(p.cur_poll_mt.mt_id) || p.cur_poll_mt) : '…'}` : 'paused')),
          h('div', { class: 'row' },
            // vc.confs.poll.state.update value: 0 stop, 1 pause, 2 resume.
            state === 1 ? h('button', { dataset: { do: 'poll-pause' }, onclick: () => setState(1, 'Poll paused.') }, 'Pause')
              : h('button', { dataset: { do: 'poll-resume' }, onclick: () => setState(2, 'Poll resumed.') }, 'Resume'),
            h('button', { dataset: { do: 'poll-stop' }, onclick: () => setState(0, 'Poll stopped.') }, 'Stop')));
      }
      const form = h('form', {
        class: 'row', onsubmit: (e) => {
          e.preventDefault();
          const v = formValues(form);
          act(st, ['poll'], () => api.put(`${base}/poll`, P({ mode: v.mode, num: v.num, keep_time: v.keep_time, members: online(st).map((m) => ({ mt_id: m.mt_id })) })), 'Poll started.');
        },
      },
      h('label', {}, 'every ', h('input', { name: 'keep_time', type: 'number', min: 5, value: 10, dataset: { kind: 'integer' }, 'aria-label': 'seconds on each terminal' }), ' s'),
      h('label', {}, 'rounds ', h('input', { name: 'num', type: 'number', min: 0, value: 0, dataset: { kind: 'integer' }, 'aria-label': 'rounds, 0 forever' })),
      h('select', { name: 'mode', dataset: { kind: 'integer' }, 'aria-label': 'poll mode' }, h('option', { value: 1 }, 'video'), h('option', { value: 3 }, 'video and audio')),
      h('button', { dataset: { do: 'poll' } }, 'Poll the online terminals'));
      return h('section', { class: 'panel', 'aria-label': 'poll' }, h('h2', {}, 'Poll ', h('small', {}, 'off')), form);
    },
  };
}

export function recordPanel(st, base) {
  return {
    render() {
      const rows = st.recorders.map((r) => {
        const paused = Number(r.state) === 2;
        const path = `${base}/recorders/${r.rec_id}`;
        return h('li', {}, `${r.video_name} `, h('small', {}, paused ? 'paused' : 'recording'),
          paused ? h('button', { dataset: { do: 'rec-resume' }, onclick: () => act(st, ['recorders'], () => api.put(`${path}/state`, P({ value: 2, recorder_mode: Number(r.recorder_mode) })), 'Recording resumed.') }, 'Resume')
            : h('button', { dataset: { do: 'rec-pause' }, onclick: () => act(st, ['recorders'], () => api.put(`${path}/state`, P({ value: 1, recorder_mode: Number(r.recorder_mode) })), 'Recording paused.') }, 'Pause'),
          h('button', { dataset: { do: 'rec-stop' }, onclick: () => act(st, ['recorders'], () => api.del(path, P({ recorder_mode: Number(r.recorder_mode) })), 'Recording stopped.') }, 'Stop'));
      });
      const name = h('input', { name: 'video_name', 'aria-label': 'recording name', value: `${st.conf.name || 'meeting'}-${rows.length + 1}`.replace(/[^\p{L}\p{N}_-]+/gu, '-') });
      const start = async (e) => {
        e.preventDefault();
        const vrs = await attempt(() => api.get('/api/v1/vc/vrs'));
        const vrsId = vrs?.vrs?.[0]?.vrs_id || '';
        act(st, ['recorders'], () => api.post(`${base}/recorders`, P({
          video_name: name.value, recorder_type: 1, publish_mode: 0, watermark: 0, anonymous: 0,
          recorder_mode: 1, main_stream: 1, dual_stream: 0, vrs_id: vrsId,
        })), 'Recording started.');
      };
      return h('section', { class: 'panel', 'aria-label': 'recording' },
        h('h2', {}, 'Recording'), rows.length ? h('ul', { class: 'recs' }, rows) : null,
        h('form', { class: 'row', onsubmit: start }, name, h('button', { dataset: { do: 'record' } }, 'Record')));
    },
  };
}
