// Conference lists (running: vc, booked: mc) and the creation form
// (POST /api/v1/mc/confs, docs/conferences.md).
import * as api from './api.js';
import { h, message, attempt, pager, table, dialog, ask } from './ui.js';
import * as forms from './forms.js';

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

export async function endConf(id, after, { verb = 'End', done = 'ended' } = {}) {
  if (!await ask(`${verb} conference ${id}?`, `${verb} it`, 'Keep it')) return;
  if (await attempt(() => api.del(`/api/v1/mc/confs/${id}`), `Conference ${id} ${done}.`) !== undefined) after?.();
}

export async function delayConf(id, after) {
  const input = h('input', { id: 'delay-min', type: 'number', min: 1, value: 30 });
  const d = dialog(`Delay conference ${id}`, h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const ok = await attempt(() => api.post(`/api/v1/vc/confs/${id}/delay`, { params: { delay_time: Number(input.value) } }),
        `Conference ${id} delayed by ${input.value} minutes.`);
      if (ok !== undefined) { d.close(); after?.(); }
    },
  }, h('label', { for: 'delay-min' }, 'Minutes later'), input, h('button', {}, 'Delay')));
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
      { title: 'Number', get: (c) => h('a', { href: `#/booked/${c.conf_id}` }, c.conf_id) },
      { title: 'Name', get: (c) => h('a', { href: `#/booked/${c.conf_id}` }, c.name) },
      { title: 'Start · length', get: when },
      { title: 'Creator', get: (c) => c.creator?.name || '' },
      { title: '', get: (c) => h('span', { class: 'actions' },
        h('a', { class: 'button view', href: `#/booked/${c.conf_id}` }, 'Open'),
        h('button', { class: 'danger', onclick: () => endConf(c.conf_id, reload, { verb: 'Cancel', done: 'cancelled' }) }, 'Cancel')) },
    ],
  });
}

// localInput writes an ISO 8601 time as a datetime-local value in the
// browser's zone.
function localInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// bookedPage shows a booked conference (GET /api/v1/mc/booked_confs/{id})
// and lets it be changed, rescheduled or booked again. The platform has
// no endpoint that changes a booking (reference 04), so a change books a
// new conference with the form's values and, once that succeeded, cancels
// the old one: its number changes (docs/console.md "Booked conferences").
export async function bookedPage(ctx, id) {
  const rec = await attempt(() => api.get(`/api/v1/mc/booked_confs/${encodeURIComponent(id)}`));
  if (!rec) return { el: h('p', {}, h('a', { href: '#/booked' }, 'Back to the booked conferences')) };
  const sch = await api.schema('POST', '/api/v1/mc/confs');
  const settingsBox = h('fieldset', { class: 'settings-box' }, forms.settings(sch.properties || {}, rec));
  const starts = h('input', { id: 'start_time', type: 'datetime-local', required: true, value: localInput(rec.start_time) });
  const mts = h('textarea', { id: 'invite', rows: 3, placeholder: 'one per line: an E.164 number or an IP address' });
  const invited = Number(rec.invited_mt_num) || 0;
  const form = h('form', { class: 'card create booked', 'aria-label': `booked conference ${id}` },
    h('h1', {}, `${rec.name} `, h('small', {}, id)),
    h('p', { class: 'meta' }, `${when(rec)} · booked by ${rec.creator?.name || 'unknown'} · ${invited} terminal${invited === 1 ? '' : 's'} invited`),
    h('div', { class: 'field' }, h('label', { for: 'f-name' }, 'Name'),
      h('input', { id: 'f-name', name: 'name', required: true, maxlength: 64, value: rec.name || '' })),
    h('div', { class: 'field' }, h('label', { for: 'start_time' }, 'Starts'), starts),
    h('div', { class: 'field' }, h('label', { for: 'invite' }, 'Terminals to call'), mts,
      h('small', {}, invited
        ? `the API does not list the ${invited} invited terminal${invited === 1 ? '' : 's'} of a booking: a change or a copy invites the ones given here`
        : 'called as soon as the conference starts')),
    protocolChoice('invite-protocol'),
    settingsBox,
    h('div', { class: 'row' },
      h('button', { type: 'submit', id: 'save-booking', dataset: { mode: 'change' } }, 'Save changes'),
      h('button', { type: 'submit', id: 'book-again', dataset: { mode: 'copy' } }, 'Book a copy'),
      h('button', { type: 'button', class: 'danger', onclick: () => endConf(id, () => ctx.go('#/booked'), { verb: 'Cancel', done: 'cancelled' }) }, 'Cancel conference'),
      h('a', { href: '#/booked' }, 'Back to the list')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const mode = e.submitter?.dataset.mode || 'change';
    const p = { create_type: 1, name: form.elements.name.value, ...forms.values(settingsBox), x_confer_start_time: isoLocal(starts.value) };
    if (!p.encrypted_key) p.encrypted_key = '';
    const inv = members(mts.value, Number(form.querySelector('#invite-protocol').value));
    if (inv.length) p.invite_members = inv;
    const r = await attempt(() => api.post('/api/v1/mc/confs', { params: p }));
    if (!r) return;
    if (mode === 'copy') {
      message(`Conference ${r.conf_id} booked.`, 'ok');
      return ctx.go(`#/booked/${r.conf_id}`);
    }
    const gone = await attempt(() => api.del(`/api/v1/mc/confs/${encodeURIComponent(id)}`));
    if (gone === undefined) {
      message(`The new booking ${r.conf_id} was made but ${id} could not be cancelled: cancel one of them.`, 'error');
      return ctx.go('#/booked');
    }
    message(`Conference ${id} changed: it is now booked as ${r.conf_id}.`, 'ok');
    ctx.go(`#/booked/${r.conf_id}`);
  });
  return { el: form };
}

// isoLocal writes a datetime-local value as ISO 8601 with the browser's
// offset, as seed 000 "Resources" 1 wants times.
export function isoLocal(v) {
  const d = new Date(v);
  const off = -d.getTimezoneOffset();
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${v.length === 16 ? `${v}:00` : v}${off >= 0 ? '+' : '-'}${pad(off / 60)}:${pad(off % 60)}`;
}

// members reads "number, IP or alias@IP" lines into invite_members, each
// called with protocol (0 H.323, 1 SIP; reference 04 "创建会议"
// invite_members, where it is required).
export function members(text, protocol = 1) {
  return text.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean).map((a) => {
    const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(a) || a.includes(':');
    return { name: a, account: a, account_type: ip ? 7 : 5, protocol };
  });
}

// protocolChoice is the select of the protocol terminals are called with.
export function protocolChoice(id) {
  return h('div', { class: 'field' }, h('label', { for: id }, 'Call them over'),
    h('select', { id }, h('option', { value: 1 }, 'SIP'), h('option', { value: 0 }, 'H.323')),
    h('small', {}, 'the protocol the terminals answer'));
}

export async function createPage(ctx) {
  const sch = await api.schema('POST', '/api/v1/mc/confs');
  const props = sch.properties || {};
  const all = [
    { value: 1, label: 'New settings' },
    { value: 3, label: 'A personal template', list: '/api/v1/mc/personal_templates', key: 'personal_templates', id: 'template_id', get: '/api/v1/mc/personal_templates/' },
    { value: 2, label: 'A public template', list: '/api/v1/mc/public_templates', key: 'public_templates', id: 'template_id', get: '/api/v1/mc/public_templates/' },
    { value: 4, label: 'A virtual room', list: '/api/v1/mc/virtual_meeting_rooms', key: 'virtual_meeting_rooms', id: 'id', get: '/api/v1/mc/virtual_meeting_rooms/' },
  ];
  // Public templates are gone from 6.1.0.2.0 (seed 001): offer what the release serves.
  const sources = [];
  for (const s of all) if (!s.list || await api.exists('GET', s.list)) sources.push(s);
  const source = h('select', { id: 'create_type' }, sources.map((s) => h('option', { value: s.value }, s.label)));
  const template = h('select', { id: 'template_id', disabled: true });
  const templateField = h('div', { class: 'field', hidden: true }, h('label', { for: 'template_id' }, 'Template or room'), template);
  const settingsBox = h('fieldset', { class: 'settings-box' }, forms.settings(props));
  const note = h('p', { class: 'note', hidden: true }, 'The settings are the template’s or room’s; edit the template to change them.');
  const defaultName = `Meeting of ${api.user()?.username || ''}`;
  const when = h('input', { id: 'start_time', type: 'datetime-local' });
  const mts = h('textarea', { id: 'invite', rows: 3, placeholder: 'one per line: an E.164 number or an IP address' });
  const form = h('form', { class: 'card create', 'aria-label': 'new conference' },
    h('h1', {}, 'New conference'),
    h('div', { class: 'field' }, h('label', { for: 'create_type' }, 'Start from'), source),
    templateField,
    h('div', { class: 'field' }, h('label', { for: 'f-name' }, 'Name'),
      h('input', { id: 'f-name', name: 'name', required: true, maxlength: 64, value: defaultName })),
    h('div', { class: 'field' }, h('label', { for: 'start_time' }, 'Starts'), when,
      h('small', {}, 'empty: now; a later time books the conference')),
    h('div', { class: 'field' }, h('label', { for: 'invite' }, 'Terminals to call'), mts,
      h('small', {}, 'called as soon as the conference starts')),
    protocolChoice('invite-protocol'),
    note, settingsBox,
    h('button', { type: 'submit', id: 'create' }, 'Create'));
  // showSource shows the chosen template's or room's own settings.
  async function showSource() {
    const s = sources.find((x) => String(x.value) === source.value);
    if (s.value === 1 || !template.value) return;
    const rec = await attempt(() => api.get(s.get + encodeURIComponent(template.value)));
    if (rec) forms.fill(settingsBox, rec);
  }
  source.addEventListener('change', async () => {
    const s = sources.find((x) => String(x.value) === source.value);
    settingsBox.disabled = s.value !== 1;
    note.hidden = s.value === 1;
    template.disabled = s.value === 1;
    templateField.hidden = s.value === 1;
    // From a template or room the name is the source's unless one is given.
    const name = form.elements.name;
    name.required = s.value === 1;
    name.placeholder = s.value === 1 ? '' : 'the template’s or room’s name';
    if (s.value !== 1 && name.value === defaultName) name.value = '';
    template.replaceChildren();
    if (s.value === 1) {
      settingsBox.replaceChildren(forms.settings(props));
      return;
    }
    const r = await attempt(() => api.get(s.list, { start: 0, count: 0 }));
    const items = r?.[s.key] || [];
    template.replaceChildren(...items.map((t) => h('option', { value: t[s.id] }, `${t.name}${t.e164 ? ` (${t.e164})` : ''}`)));
    if (!items.length) message(`There is no ${s.label.replace(/^An? /, '').toLowerCase()} yet.`, 'info');
    await showSource();
  });
  template.addEventListener('change', showSource);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const type = Number(source.value);
    const p = { create_type: type };
    if (form.elements.name.value) p.name = form.elements.name.value;
    if (type === 1) {
      Object.assign(p, forms.values(settingsBox));
      if (!p.encrypted_key) p.encrypted_key = '';
    } else {
      if (!template.value) return message('Choose a template or room.', 'error');
      p.template_id = template.value;
    }
    const inv = members(mts.value, Number(form.querySelector('#invite-protocol').value));
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
