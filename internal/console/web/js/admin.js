// List, detail and edit pages of the platform's records: templates and
// virtual rooms (mc), accounts and departments (amc), recording programs
// (vrs), network management (nms). One generic page per resource; the
// edit forms are built from the endpoints' schemas in /api/openapi.json.
import * as api from './api.js';
import { h, message, attempt, field, pager, table } from './ui.js';

const PAGE = 10;
const TEMPLATE = {
  name: 'New template', bitrate: 2048, closed_conf: 0, safe_conf: 0, encrypted_type: 0, conf_type: 0, call_mode: 2,
  call_times: 3, call_interval: 20, mute: 0, silence: 0, video_quality: 0, one_reforming: 0, dual_mode: 1,
  voice_activity_detection: 0, cascade_mode: 1, cascade_upload: 1, cascade_return: 0, cascade_return_para: 0,
  public_conf: 0, max_join_mt: 192, auto_end: 0, preoccupy_resource: 0, bind_e164: 0,
  video_formats: [{ format: 4, resolution: 12, frame: 30, bitrate: 2048 }],
};

// Resources: list endpoint and reply key, id field, columns, and the
// detail, create, update and delete endpoints ({id} is the record's id).
const RESOURCES = {
  templates: [{
    title: 'Personal templates', list: '/api/v1/mc/personal_templates', key: 'personal_templates', id: 'template_id',
    cols: ['name', 'e164', 'bitrate', 'max_join_mt'],
    get: '/api/v1/mc/personal_templates/{id}', create: ['POST', '/api/v1/mc/personal_templates'],
    update: ['POST', '/api/v1/mc/personal_templates/{id}'], remove: '/api/v1/mc/personal_templates/{id}', blank: TEMPLATE,
  }, {
    title: 'Public templates', list: '/api/v1/mc/public_templates', key: 'public_templates', id: 'template_id',
    cols: ['name', 'e164', 'bitrate', 'max_join_mt'],
    get: '/api/v1/mc/public_templates/{id}', create: ['POST', '/api/v1/mc/public_templates'],
    update: ['POST', '/api/v1/mc/public_templates/{id}'], remove: '/api/v1/mc/public_templates/{id}', blank: TEMPLATE,
  }],
  rooms: [{
    title: 'Virtual meeting rooms', list: '/api/v1/mc/virtual_meeting_rooms', key: 'virtual_meeting_rooms', id: 'id',
    cols: ['name', 'e164', 'status', 'max_join_mt'],
    get: '/api/v1/mc/virtual_meeting_rooms/{id}', create: ['POST', '/api/v1/mc/virtual_meeting_rooms'],
    update: ['POST', '/api/v1/mc/virtual_meeting_rooms/{id}'], remove: '/api/v1/mc/virtual_meeting_rooms/{id}',
    blank: { name: 'New room', bitrate: 2048, max_join_mt: 192, video_formats: [{ format: 4, resolution: 12, frame: 30, bitrate: 2048 }] },
  }],
  accounts: [{
    title: 'Accounts', list: '/api/v1/amc/accounts', key: 'accounts', id: 'account_moid',
    cols: ['account', 'name', 'e164', 'email', 'enable'],
    get: '/api/v1/amc/accounts/{id}', create: ['POST', '/api/v1/amc/accounts'],
    update: ['PUT', '/api/v1/amc/accounts/{id}'], remove: '/api/v1/amc/accounts/{id}',
    blank: { account: '', name: '', password: '' },
  }, { title: 'Departments', departments: true }],
  programs: [{
    // Folder 1 is ALL, every program of the domain (docs/vrs.md "Folders").
    title: 'Recording programs', list: '/api/v1/vrs/program', key: 'prginfo', id: 'prggid', vrs: true,
    cols: ['prgalias', 'createtime', 'prgallduration', 'prgallsize', 'prgstate'],
  }],
  nms: [{ title: 'Network', nms: true }],
};

const fill = (path, id) => path.replace(/\{[a-z_]+\}/, encodeURIComponent(id));

export async function adminPage(ctx, section, id) {
  const parts = [];
  for (const r of RESOURCES[section] || []) {
    if (r.list && !(await api.exists('GET', r.list))) continue; // not at this release
    if (id && r.get && id.startsWith(`${r.key}:`)) return { el: await detail(ctx, section, r, id.slice(r.key.length + 1)) };
    if (r.departments) parts.push(await departments());
    else if (r.nms) parts.push(await network());
    else parts.push(await list(ctx, section, r));
  }
  return { el: h('section', { class: 'page' }, parts) };
}

async function list(ctx, section, r) {
  let start = 0;
  const body = h('div');
  const box = h('section', { class: 'resource', 'aria-label': r.title },
    h('div', { class: 'page-head' }, h('h1', {}, r.title),
      r.create && h('a', { class: 'button', href: `#/${section}/${r.key}:new` }, 'New')),
    body);
  async function load() {
    const q = r.vrs ? { folderid: 1, pageid: Math.floor(start / PAGE) + 1, prgs1page: PAGE } : { start, count: PAGE };
    const res = await attempt(() => api.get(r.list, q));
    if (!res) return;
    const items = res[r.key] || [];
    const total = res.total ?? res.prgcount ?? items.length;
    const cols = r.cols.map((c, i) => ({
      title: c,
      get: (it) => (i === 0 && r.get ? h('a', { href: `#/${section}/${r.key}:${it[r.id]}` }, String(it[c] ?? '')) : String(it[c] ?? '')),
    }));
    if (r.vrs) {
      // A program recorded with media is a file (docs/recording.md): it
      // plays here and downloads with the session; one without a file
      // answers 24106, shown as the platform's description.
      cols.push({
        title: '', get: (it) => h('span', { class: 'row' },
          h('button', { class: 'play', onclick: () => play(it) }, 'Play'),
          h('a', { class: 'download', href: api.fileURL(`/api/v1/vrs/programs/${it.prggid}/file`), download: '' }, 'Download')),
      });
    }
    async function play(it) {
      const url = api.fileURL(`/api/v1/vrs/programs/${it.prggid}/file`);
      const head = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
      if (!head.ok || (head.headers.get('Content-Type') || '').includes('json')) {
        await attempt(() => api.get(`/api/v1/vrs/programs/${it.prggid}/file`));
        return;
      }
      player.replaceChildren(h('h2', {}, `Playing ${it.prgalias || it.prggid}`),
        h('video', { class: 'program', controls: true, autoplay: true, src: url }));
    }
    if (r.remove || r.vrs) {
      cols.push({
        title: '', get: (it) => h('button', {
          class: 'danger', onclick: async () => {
            if (!confirm(`Delete ${it[r.cols[0]]}?`)) return;
            const done = r.vrs
              ? await attempt(() => api.del(r.list, { params: { prgdelpckinfo: [{ prggid: it.prggid, vrsmoid: it.vrsmoid }] } }), 'Deleted.')
              : await attempt(() => api.del(fill(r.remove, it[r.id])), 'Deleted.');
            if (done !== undefined) load();
          },
        }, 'Delete'),
      });
    }
    body.replaceChildren(table(cols, items), pager(start, PAGE, total, (s) => { start = s; load(); }), player);
  }
  const player = h('div', { class: 'player', 'aria-live': 'polite' });
  await load();
  return box;
}

// detail shows one record as a form built from the update (or create)
// endpoint's schema; nested values are edited as JSON.
async function detail(ctx, section, r, id) {
  const isNew = id === 'new';
  const [method, path] = isNew ? r.create : r.update;
  const sch = await api.schema(method, path);
  let rec = r.blank || {};
  if (!isNew) {
    const got = await attempt(() => api.get(fill(r.get, id)));
    if (!got) return h('p', {}, h('a', { href: `#/${section}` }, 'Back'));
    rec = got;
  }
  const names = Object.keys(sch.properties).sort((a, b) => (sch.required.includes(b) - sch.required.includes(a)) || a.localeCompare(b));
  const inputs = names.map((n) => {
    const prop = sch.properties[n];
    const v = rec[n];
    if (prop.type === 'object' || prop.type === 'array') {
      const ta = h('textarea', { id: `f-${n}`, name: n, rows: 3, dataset: { kind: 'json' } }, v === undefined ? '' : JSON.stringify(v));
      return h('div', { class: 'field' }, h('label', { for: `f-${n}` }, `${n} (JSON)`), ta, h('small', {}, prop.description || ''));
    }
    return field(n, prop, v, { label: sch.required.includes(n) ? `${n} *` : n });
  });
  const form = h('form', { class: 'card edit', 'aria-label': `${r.title}: ${isNew ? 'new' : id}` },
    h('h1', {}, `${r.title}: ${isNew ? 'new' : (rec.name || rec.account || id)}`), inputs,
    h('div', { class: 'row' }, h('button', {}, isNew ? 'Create' : 'Save'), h('a', { href: `#/${section}` }, 'Back to the list')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const p = {};
    for (const el of form.querySelectorAll('[name]')) {
      if (el.value === '') continue;
      if (el.dataset.kind === 'json') {
        try { p[el.name] = JSON.parse(el.value); } catch { return message(`${el.name}: not valid JSON`, 'error'); }
      } else p[el.name] = el.dataset.kind === 'integer' ? Number(el.value) : el.value;
    }
    const target = isNew ? path : fill(path, id);
    const args = sch.style === 'params' ? { params: p } : p;
    const res = await attempt(() => api.call(method, target, args), isNew ? 'Created.' : 'Saved.');
    if (res !== undefined) ctx.go(`#/${section}`);
  });
  return form;
}

// departments shows the department tree (amc), with add and remove.
async function departments() {
  const box = h('section', { class: 'resource', 'aria-label': 'departments' });
  async function load() {
    const root = await attempt(() => api.get('/api/v1/amc/departments'));
    if (!root) return;
    const node = (d) => h('li', {}, d.department_name || '(domain)', ' ',
      h('button', {
        onclick: async () => {
          const name = prompt('Name of the new department');
          if (name && await attempt(() => api.post('/api/v1/amc/departments', { params: { department_name: name, parent_department_moid: d.department_moid } }), 'Department added.') !== undefined) load();
        },
      }, 'Add below'),
      d.department_name && h('button', {
        class: 'danger', onclick: async () => {
          if (confirm(`Delete ${d.department_name}?`) && await attempt(() => api.del(`/api/v1/amc/departments/${d.department_moid}`), 'Department deleted.') !== undefined) load();
        },
      }, 'Delete'),
      d.departments?.length ? h('ul', {}, d.departments.map(node)) : null);
    box.replaceChildren(h('h1', {}, 'Departments'), h('ul', { class: 'tree' }, node(root)));
  }
  await load();
  return box;
}

// network shows the platform domains, their servers and unrepaired
// alarms (nms), and the terminals of the user domain.
async function network() {
  const box = h('section', { class: 'resource', 'aria-label': 'network' }, h('h1', {}, 'Network'));
  const d = await attempt(() => api.get('/api/v1/nms/domains'));
  for (const dom of d?.domains || []) {
    box.append(h('h2', {}, `${dom.name} `, h('small', {}, dom.type)));
    const phys = await api.get(`/api/v1/nms/platform_domains/${dom.moid}/physicals`).catch(() => null);
    const servers = phys?.physicals || [];
    for (const s of servers) {
      const moid = s.moid;
      const warn = await api.get(`/api/v1/nms/servers/${moid}/unrepaired_warnings`).catch(() => null);
      const alarms = warn?.unrepaired_warnings || [];
      box.append(h('div', { class: 'card' }, h('h3', {}, s.name || moid, ' ', h('small', {}, s.ip || '')),
        h('p', { class: 'server-state' }, `${s.online} · cpu ${s.cpu ?? ''} % · memory ${s.memory ?? ''} % · disk ${s.disk ?? ''} %`), // online: "online" or "offline" (reference 06)
        table(['start_time', 'warning_level', 'device_name', 'description'].map((k) => ({ title: k, get: (a) => String(a[k] ?? '') })),
          alarms, 'no unrepaired alarm')));
    }
  }
  return box;
}
