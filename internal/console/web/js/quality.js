// Call quality on a running conference's page (docs/console.md "Call
// quality"): each online terminal's channels with codec, picture,
// bitrate, packet loss and jitter, from Confer's extension
// GET /api/v1/vc/confs/{conf_id}/quality, read every 2 seconds while the
// page is open (the figures are measurements, not state changes: push
// does not carry them).
import * as api from './api.js';
import { h } from './ui.js';

const every = 2000;

// grade names a channel's loss and jitter as an operator reads them.
function grade(c) {
  if (c.direction === 'receive' && !Number(c.reported)) return 'waiting';
  const loss = Number(c.loss) || 0;
  const jitter = Number(c.jitter) || 0;
  if (loss >= 5 || jitter >= 50) return 'poor';
  if (loss >= 1 || jitter >= 20) return 'fair';
  return 'good';
}

function channelRow(m, c) {
  const g = grade(c);
  return h('tr', { dataset: { qualityMt: m.mt_id, channel: `${c.kind}/${c.direction}` } },
    h('td', { 'data-label': 'Participant' }, m.alias || m.mt_id),
    h('td', { 'data-label': 'Channel' }, `${c.kind} ${c.direction === 'send' ? 'sent' : 'received'}`),
    h('td', { 'data-label': 'Codec' }, (c.codec || '').replace(/^(audio|video)\//, '')),
    h('td', { 'data-label': 'Picture' }, Number(c.width) ? `${c.width}×${c.height}` : ''),
    h('td', { 'data-label': 'Bitrate' }, `${c.bitrate} kbit/s`),
    h('td', { 'data-label': 'Loss', class: 'loss' }, Number(c.reported) || c.direction === 'send' ? `${Number(c.loss).toFixed(1)} %` : '–'),
    h('td', { 'data-label': 'Jitter' }, Number(c.reported) || c.direction === 'send' ? `${Number(c.jitter).toFixed(1)} ms` : '–'),
    h('td', { 'data-label': 'Quality', class: `grade ${g}` }, g));
}

// qualityPanel returns the panel's element and stop.
export function qualityPanel(id) {
  const body = h('div', { class: 'quality-body' }, h('p', { class: 'empty' }, 'Measuring…'));
  const el = h('section', { class: 'panel quality', 'aria-label': 'call quality' }, h('h2', {}, 'Call quality'), body);
  let timer;
  let stopped = false;
  async function load() {
    if (stopped) return;
    try {
      const r = await api.get(`/api/v1/vc/confs/${encodeURIComponent(id)}/quality`);
      const measured = (r.mts || []).filter((m) => Number(m.measured) === 1 && (m.channels || []).length);
      body.replaceChildren(measured.length
        ? h('table', { class: 'list' },
          h('thead', {}, h('tr', {}, ['Participant', 'Channel', 'Codec', 'Picture', 'Bitrate', 'Loss', 'Jitter', 'Quality'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, measured.flatMap((m) => m.channels.map((c) => channelRow(m, c)))))
        : h('p', { class: 'empty' }, 'No media session on this node yet (simulated calls carry no media).'));
    } catch (e) {
      body.replaceChildren(h('p', { class: 'empty' }, `Call quality is not available: ${e.message}`));
    }
    if (!stopped) timer = setTimeout(load, every);
  }
  load();
  return { el, stop: () => { stopped = true; clearTimeout(timer); } };
}
