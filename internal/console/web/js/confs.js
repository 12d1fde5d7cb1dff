// Conference lists (running: vc, booked: mc) and the creation form
// (POST /api/v1/mc/confs, docs/conferences.md).
import * as api from './api.js';
import { h, message, attempt, field, formValues, pager, table, dialog } from './ui.js';

const PAGE = 10;

// searchable lists a page of items: without a search, the server pages
// (start, count); with one, every item is read (count 0) and the page is
// cut from the matches, since the list endpoints have no name filter.
async function pageOf(path, key, start, query, extra = {}) {
  const q = query.trim().toLowerCase();
  if (!q) {
    const r = await api.get(path, { ...extra, start, count: PAGE });
    return { items: r[key] || [], total: r.total ?? (r[key] || []).length };
  }
  const r = await api.get(path, { ...extra, start: 0, count: 0 });
  const hits = (r[key] || []).filter((c) => `${c.name} ${c.conf_id}`.toLowerCase().includes(q));
  return { items: hits.slice(start, start + PAGE), total: hits.length };
}

function when(c) {
  const s = c.start_time ? c.start_time.replace('T', ' ').slice(0, 16) : '';
  return c.duration ? `${s} · ${c.duration} min` : `${s} · permanent`;
}

// listPage is the frame of both lists: a search box, the table, the pager.
async function listPage(ctx, { title, path, key, cols, extra, live }) {
  let start = 0;
  let query = '';
  const body = h('div', { class: 'list-body' });
  const search = h('input', { type: 'search', id: 'search', placeholder: 'name or number', 'aria-label': 'search' });
  const el = h('section', { class: 'page', 'aria-label': title },
    h('div', { class: 'page-head' }, h('h1', {}, title),
      h('form', { role: 'search', onsubmit: (e) => { e.preventDefault(); query = search.value; start = 0; load(); } },
        search, h('button', {}, 'Search')),
      h('a', { class: 'button', href: '#/new' }, 'New conference')),
    body);
  async function load() {
    const r = await attempt(() => pageOf(path, key, start, query, extra));
    if (!r) return;
    if (r.items.length === 0 && start > 0) { start = Math.max(0, start - PAGE); return load(); }
    body.replaceChildren(table(cols(load), r.items, query ? 'no conference matches' : 'no conference'),
      pager(start, PAGE, r.total, (s) => { start = s; load(); }));
  }
  await load();
  let cleanup;
  if (live && ctx.push()) {
    // The conference list channel (docs/push.md): any change reloads the page.
    let timer;
    const unsub = ctx.push().subscribe('/confs', () => { clearTimeout(timer); timer = setTimeout(load, 200); });
    cleanup = () => { clearTimeout(timer); unsub.then((f) => f()); };
  }
  return { el, cleanup };
}

export async function endConf(id, after) {
  if (!confirm(`End conference ${id}?`)) return;
  if (await attempt(() => api.del(`/api/v1/mc/confs/${id}`), `Conference ${id} ended.`) !== undefined) after?.();
}

export async function delayConf(id, after) {
  const input = h('input', { id: 'delay-min', type: 'number', min: 1, value: 30, 'aria-label': 'minutes' });
  const d = dialog(`Extend conference ${id}`, h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const ok = await attempt(() => api.post(`/api/v1/vc/confs/${id}/delay`, { params: { delay_time: Number(input.value) } }),
        `Conference ${id} extended by ${input.value} minutes.`);
      if (ok !== undefined) { d.close(); after?.(); }
    },
  }, h('label', { for: 'delay-min' }, 'Minutes'), input, h('button', {}, 'Extend')));
}

export function runningList(ctx) {
  return listPage(ctx, {
    title: 'Running conferences', path: '/api/v1/vc/confs', key: 'confs', live: true,
    cols: (reload) => [
      { title: 'Number', get: (c) => h('a', { href: `#/conf/${c.conf_id}` }, c.conf_id) },
      { title: 'Name', get: (c) => h('a', { href: `#/conf/${c.conf_id}` }, c.name) },
      { title: 'Start · length', get: when },
      { title: 'Creator', get: (c) => c.creator?.name || '' },
      { title: 'Size', get: (c) => c.max_join_mt },
      { title: '', get: (c) => h('span', { class: 'actions' },
        h('button', { onclick: () => delayConf(c.conf_id, reload) }, 'Delay'),
        h('button', { class: 'danger', onclick: () => endConf(c.conf_id, reload) }, 'End')) },
    ],
  });
}

export function bookedList(ctx) {
  return listPage(ctx, {
    title: 'Booked conferences', path: '/api/v1/mc/booked_confs', key: 'booked_confs', live: true,
    cols: (reload) => [
      { title: 'Number', get: (c) => c.conf_id },
      { title: 'Name', get: (c) => c.name },
      { title: 'Start · length', get: when },
      { title: 'Creator', get: (c) => c.creator?.name || '' },
      { title: '', get: (c) => h('button', { class: 'danger', onclick: () => endConf(c.conf_id, reload) }, 'Cancel') },
    ],
  });
}

// The fields of a conference made from scratch, with their defaults: every
// parameter reference 04 "创建会议" requires when create_type is 1.
const BASIC = [['duration', 120], ['bitrate', 2048], ['max_join_mt', 192], ['call_mode', 2], ['password', '']];
const MORE = [['conf_type', 0], ['call_times', 3], ['call_interval', 20], ['mute', 0], ['silence', 0],
  ['dual_mode', 1], ['voice_activity_detection', 0], ['vacinterval', 5], ['closed_conf', 0], ['safe_conf', 0],
  ['public_conf', 0], ['auto_end', 0], ['encrypted_type', 0], ['encrypted_key', ''], ['video_quality', 0],
  ['cascade_mode', 1], ['cascade_upload', 1], ['cascade_return', 0], ['cascade_return_para', 0],
  ['preoccupy_resource', 0], ['one_reforming', 0]];
const VIDEO = [['format', 4], ['resolution', 12], ['frame', 30]];

// isoLocal writes a datetime-local value as ISO 8601 with the browser's
// offset, as seed 000 "Resources" 1 wants times.
export function isoLocal(v) {
  const d = new Date(v);
  const off = -d.getTimezoneOffset();
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${v.length === 16 ? `${v}:00` : v}${off >= 0 ? '+' : '-'}${pad(off / 60)}:${pad(off % 60)}`;
}

// members reads "number, IP or alias@IP" lines into invite_members.
export function members(text) {
  return text.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean).map((a) => {
    const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(a) || a.includes(':');
    return { name: a, account: a, account_type: ip ? 7 : 5 };
  });
}

export async function createPage(ctx) {
  const sch = await api.schema('POST', '/api/v1/mc/confs');
  const props = sch.properties || {};
  const vprops = props.video_formats?.items?.properties || {};
  const all = [
    { value: 1, label: 'from scratch' },
    { value: 3, label: 'from a personal template', list: '/api/v1/mc/personal_templates', key: 'personal_templates', id: 'template_id' },
    { value: 2, label: 'from a public template', list: '/api/v1/mc/public_templates', key: 'public_templates', id: 'template_id' },
    { value: 4, label: 'from a virtual room', list: '/api/v1/mc/virtual_meeting_rooms', key: 'virtual_meeting_rooms', id: 'id' },
  ];
  // Public templates are gone from 6.1.0.2.0 (seed 001): offer what the release serves.
  const sources = [];
  for (const s of all) if (!s.list || await api.exists('GET', s.list)) sources.push(s);
  const source = h('select', { id: 'create_type', 'aria-label': 'source' },
    sources.map((s) => h('option', { value: s.value }, s.label)));
  const template = h('select', { id: 'template_id', 'aria-label': 'template or room', disabled: true });
  const settings = h('fieldset', { class: 'settings' }, h('legend', {}, 'Settings'),
    BASIC.map(([n, v]) => field(n, props[n], v)),
    h('details', {}, h('summary', {}, 'More settings'),
      MORE.map(([n, v]) => field(n, props[n], v)),
      h('fieldset', { class: 'video' }, h('legend', {}, 'Main video format'),
        VIDEO.map(([n, v]) => field(`video_${n}`, vprops[n], v, { label: n })))));
  const defaultName = `Meeting of ${api.user()?.username || ''}`;
  const when = h('input', { id: 'start_time', type: 'datetime-local', 'aria-label': 'start time' });
  const mts = h('textarea', { id: 'invite', rows: 3, placeholder: 'one per line: E.164 number, IP address' });
  const form = h('form', { class: 'card create', 'aria-label': 'new conference' },
    h('h1', {}, 'New conference'),
    h('div', { class: 'field' }, h('label', { for: 'create_type' }, 'Source'), source),
    h('div', { class: 'field' }, h('label', { for: 'template_id' }, 'Template or room'), template),
    h('div', { class: 'field' }, h('label', { for: 'f-name' }, 'Name'),
      h('input', { id: 'f-name', name: 'name', required: true, maxlength: 64, value: defaultName })),
    settings,
    h('div', { class: 'field' }, h('label', { for: 'invite' }, 'Terminals to call'), mts),
    h('div', { class: 'field' }, h('label', { for: 'start_time' }, 'Book for (empty: start now)'), when),
    h('button', { type: 'submit', id: 'create' }, 'Create'));
  source.addEventListener('change', async () => {
    const s = sources.find((x) => String(x.value) === source.value);
    settings.disabled = s.value !== 1;
    template.disabled = s.value === 1;
    // From a template or room the name is the source's unless one is given.
    const name = form.elements.name;
    name.required = s.value === 1;
    name.placeholder = s.value === 1 ? '' : 'the template’s or room’s name';
    if (s.value !== 1 && name.value === defaultName) name.value = '';
    template.replaceChildren();
    if (s.value === 1) return;
    const r = await attempt(() => api.get(s.list, { start: 0, count: 0 }));
    const items = r?.[s.key] || [];
    template.replaceChildren(...items.map((t) => h('option', { value: t[s.id] }, `${t.name}${t.e164 ? ` (${t.e164})` : ''}`)));
    if (!items.length) message(`There is no ${s.label.replace('from a ', '')} yet.`, 'info');
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const type = Number(source.value);
    const p = { create_type: type };
    if (form.elements.name.value) p.name = form.elements.name.value;
    if (type === 1) {
      const v = formValues(settings);
      const vf = {};
      for (const [n] of VIDEO) { vf[n] = v[`video_${n}`]; delete v[`video_${n}`]; }
      vf.bitrate = v.bitrate;
      Object.assign(p, v, { video_formats: [vf] });
      if (!p.encrypted_key) p.encrypted_key = '';
    } else {
      if (!template.value) return message('Choose a template or room.', 'error');
      p.template_id = template.value;
    }
    const inv = members(mts.value);
    if (inv.length) p.invite_members = inv;
    if (when.value) p.x_confer_start_time = isoLocal(when.value); // Confer's booking extension (docs/conferences.md)
    const r = await attempt(() => api.post('/api/v1/mc/confs', { params: p }));
    if (!r) return;
    // Booked or started: the server's clock decides (docs/conferences.md).
    let running = true;
    try { await api.get(`/api/v1/vc/confs/${r.conf_id}`); } catch { running = false; }
    message(`Conference ${r.conf_id} ${running ? 'started' : 'booked'}.`, 'ok');
    ctx.go(running ? `#/conf/${r.conf_id}` : '#/booked');
  });
  return { el: form };
}
