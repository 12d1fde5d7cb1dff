// The history: ended conferences and their call records, Confer's
// extension (docs/conferences.md "History and call records";
// docs/console.md "History"): GET /api/v1/mc/history with a search by
// name or number and a window of end dates, and one conference's calls
// from GET /api/v1/mc/history/{history_id}.
import * as api from './api.js';
import { h, attempt, table, pager } from './ui.js';
import { duration } from './format.js';

const pageSize = 20;

// when writes an ISO 8601 time of the API as a local date and time.
function when(s) {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// joinedHow names a call's join_type.
function joinedHow(t) {
  switch (t) {
    case 'called': return 'called by the conference';
    case 'browser': return 'join page';
    case 'whip': return 'WHIP';
    case 'sip': return 'called in (SIP)';
    default: return t || '';
  }
}

// length is the time from a conference's start to its end.
function length(c) {
  return duration((new Date(c.end_time) - new Date(c.start_time)) / 1000);
}

const protocols = { 0: 'H.323', 1: 'SIP', 2: 'WebRTC' };

export async function historyList() {
  const results = h('div', { class: 'history-results', 'aria-live': 'polite' });
  const keyword = h('input', { id: 'history-keyword', type: 'search', name: 'keyword', placeholder: 'name or number' });
  const from = h('input', { id: 'history-from', type: 'date', name: 'from' });
  const to = h('input', { id: 'history-to', type: 'date', name: 'to' });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'search the history' },
    h('div', { class: 'field' }, h('label', { for: 'history-keyword' }, 'Conference'), keyword),
    h('div', { class: 'field' }, h('label', { for: 'history-from' }, 'Ended from'), from),
    h('div', { class: 'field' }, h('label', { for: 'history-to' }, 'to'), to),
    h('button', { type: 'submit', id: 'history-search' }, 'Search'));
  let start = 0;
  async function load() {
    const q = { start, count: pageSize };
    if (keyword.value.trim()) q.keyword = keyword.value.trim();
    // The dates are the browser's days: from its first second to the
    // first second of the day after "to".
    if (from.value) q.start_time = new Date(`${from.value}T00:00:00`).toISOString().replace(/\.\d+Z$/, '+00:00');
    if (to.value) {
      const end = new Date(`${to.value}T00:00:00`);
      end.setDate(end.getDate() + 1);
      q.end_time = end.toISOString().replace(/\.\d+Z$/, '+00:00');
    }
    const r = await attempt(() => api.get('/api/v1/mc/history', q));
    if (!r) return;
    const total = r.total || 0;
    results.replaceChildren(
      table([
        { title: 'Conference', get: (c) => h('a', { href: `#/history/${encodeURIComponent(c.history_id)}` }, c.name || c.conf_id) },
        { title: 'Number', get: (c) => c.conf_id },
        { title: 'Started', get: (c) => when(c.start_time) },
        { title: 'Ended', get: (c) => when(c.end_time) },
        { title: 'Length', get: (c) => length(c) },
        { title: 'Participants', get: (c) => String(c.participants) },
        { title: 'Created by', get: (c) => c.creator?.name || '' },
      ], r.confs || [], 'No ended conference matches.'),
      ...(total > pageSize ? [pager(start, pageSize, total, (n) => { start = n; load(); })] : []));
  }
  form.addEventListener('submit', (ev) => { ev.preventDefault(); start = 0; load(); });
  const el = h('section', { class: 'page history', 'aria-label': 'history' },
    h('div', { class: 'page-head' }, h('h1', {}, 'History')),
    h('p', { class: 'meta' }, 'Ended conferences and who took part, newest first.'),
    form, results);
  await load();
  return { el };
}

export async function historyPage(ctx, id) {
  const r = await attempt(() => api.get(`/api/v1/mc/history/${encodeURIComponent(id)}`));
  if (!r) {
    return { el: h('section', { class: 'page' }, h('p', {}, 'This conference is not in the history.'), h('a', { href: '#/history' }, 'Back to the history')) };
  }
  const calls = r.calls || [];
  const el = h('section', { class: 'page history-detail', 'aria-label': `history of ${r.name}` },
    h('p', {}, h('a', { href: '#/history' }, '← History')),
    h('div', { class: 'page-head' }, h('h1', {}, r.name || r.conf_id)),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Number'), h('dd', {}, r.conf_id),
      h('dt', {}, 'Started'), h('dd', {}, when(r.start_time)),
      h('dt', {}, 'Ended'), h('dd', {}, when(r.end_time)),
      h('dt', {}, 'Length'), h('dd', {}, length(r)),
      h('dt', {}, 'Participants'), h('dd', { id: 'history-participants' }, String(r.participants)),
      h('dt', {}, 'Created by'), h('dd', {}, r.creator?.name || '')),
    h('h2', {}, `Calls (${r.calls_count})`),
    table([
      { title: 'Participant', get: (c) => c.alias || c.account },
      { title: 'Address', get: (c) => c.e164 || c.ip || c.account },
      { title: 'Protocol', get: (c) => protocols[c.protocol] ?? String(c.protocol) },
      { title: 'How', get: (c) => joinedHow(c.join_type) },
      { title: 'Joined', get: (c) => when(c.join_time) },
      { title: 'Left', get: (c) => when(c.leave_time) + (Number(c.lost) ? ' (connection lost)' : '') },
      { title: 'Time in the call', get: (c) => duration(c.duration) },
    ], calls, 'Nobody joined this conference.'));
  return { el };
}
