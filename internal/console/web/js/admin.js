// List, detail and edit pages of the platform's records: templates and
// virtual rooms (mc), accounts and departments (amc), recording programs
// (vrs), network management (nms). One generic page per resource; the
// edit forms are built from the endpoints' schemas in /api/openapi.json.
import * as api from './api.js';
import { h, message, attempt, pager, table, ask } from './ui.js';
import * as forms from './forms.js';
import * as fmt from './format.js';
import { members } from './confs.js';

const PAGE = 10;
const TEMPLATE = { name: 'New template' };

// Resources: list endpoint and reply key, id field, columns, and the
// detail, create, update and delete endpoints ({id} is the record's id).
const RESOURCES = {
  templates: [{
    title: 'Personal templates', list: '/api/v1/mc/personal_templates', key: 'personal_templates', id: 'template_id',
    cols: [['name', 'Name'], ['e164', 'Number'], ['bitrate', 'Bit rate (kbit/s)'], ['max_join_mt', 'Participants at most']],
    get: '/api/v1/mc/personal_templates/{id}', create: ['POST', '/api/v1/mc/personal_templates'],
    update: ['POST', '/api/v1/mc/personal_templates/{id}'], remove: '/api/v1/mc/personal_templates/{id}', blank: TEMPLATE,
  }, {
    title: 'Public templates', list: '/api/v1/mc/public_templates', key: 'public_templates', id: 'template_id',
    cols: [['name', 'Name'], ['e164', 'Number'], ['bitrate', 'Bit rate (kbit/s)'], ['max_join_mt', 'Participants at most']],
    get: '/api/v1/mc/public_templates/{id}', create: ['POST', '/api/v1/mc/public_templates'],
    update: ['POST', '/api/v1/mc/public_templates/{id}'], remove: '/api/v1/mc/public_templates/{id}', blank: TEMPLATE,
  }],
  rooms: [{
    title: 'Virtual meeting rooms', list: '/api/v1/mc/virtual_meeting_rooms', key: 'virtual_meeting_rooms', id: 'id',
    cols: [['name', 'Name'], ['e164', 'Number'], ['status', 'State', (v) => (Number(v) === 1 ? 'in use' : 'free')], ['max_join_mt', 'Participants at most']],
    get: '/api/v1/mc/virtual_meeting_rooms/{id}', create: ['POST', '/api/v1/mc/virtual_meeting_rooms'],
    update: ['POST', '/api/v1/mc/virtual_meeting_rooms/{id}'], remove: '/api/v1/mc/virtual_meeting_rooms/{id}',
    blank: { name: 'New room' },
  }],
  accounts: [{
    title: 'Accounts', list: '/api/v1/amc/accounts', key: 'accounts', id: 'account_moid',
    cols: [['account', 'User name'], ['name', 'Name'], ['e164', 'Number'], ['email', 'E-mail'], ['enable', 'Can log in', (v) => (Number(v) === 1 ? 'yes' : 'no')]],
    // The platform names the path parameter account_moid (reference 08).
    get: '/api/v1/amc/accounts/{account_moid}', create: ['POST', '/api/v1/amc/accounts'],
    update: ['PUT', '/api/v1/amc/accounts/{account_moid}'], remove: '/api/v1/amc/accounts/{account_moid}',
    account: true,
  }, { title: 'Departments', departments: true }],
  programs: [{
    // Folder 1 is ALL, every program of the domain (docs/vrs.md "Folders").
    title: 'Recording programs', list: '/api/v1/vrs/program', key: 'prginfo', id: 'prggid', vrs: true,
    cols: [['prgalias', 'Name'], ['createtime', 'Recorded', fmt.unixTime], ['prgallduration', 'Length', fmt.duration], ['prgallsize', 'Size', fmt.bytes], ['prgstate', 'State', fmt.programState]],
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
  const player = h('div', { class: 'player', 'aria-live': 'polite' });
  const label = (it) => String(it[r.cols[0][0]] ?? it[r.id]);
  async function load() {
    const q = r.vrs ? { folderid: 1, pageid: Math.floor(start / PAGE) + 1, prgs1page: PAGE } : { start, count: PAGE };
    const res = await attempt(() => api.get(r.list, q));
    if (!res) return;
    const items = res[r.key] || [];
    const total = res.total ?? res.prgcount ?? items.length;
    const cols = r.cols.map(([c, title, show], i) => ({
      title,
      get: (it) => {
        const text = show ? show(it[c]) : String(it[c] ?? '');
        return i === 0 && r.get ? h('a', { href: `#/${section}/${r.key}:${it[r.id]}` }, text || '(no name)') : text;
      },
    }));
    // A program plays and downloads only when it has a file with frames
    // (docs/recording.md "Download"): a HEAD of its file answers the video,
    // else the platform's error (24106: recorded without media).
    const files = r.vrs ? await Promise.all(items.map((it) => hasFile(it.prggid))) : [];
    if (r.vrs) {
      cols.push({
        title: '', get: (it) => {
          const i = items.indexOf(it);
          if (!files[i]) return h('span', { class: 'no-media' }, 'no picture or sound recorded');
          return h('span', { class: 'row' },
            h('button', { class: 'play', onclick: () => play(it) }, 'Play'),
            h('a', { class: 'download', href: api.fileURL(`/api/v1/vrs/programs/${it.prggid}/file`), download: '' }, 'Download'));
        },
      });
    }
    if (r.remove || r.vrs) {
      cols.push({
        title: '', get: (it) => h('button', {
          class: 'danger', onclick: async () => {
            if (!await ask(`Delete ${label(it)}?`, 'Delete')) return;
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
  async function hasFile(gid) {
    const head = await fetch(api.fileURL(`/api/v1/vrs/programs/${gid}/file`), { method: 'HEAD', credentials: 'same-origin' }).catch(() => null);
    return Boolean(head?.ok && (head.headers.get('Content-Type') || '').startsWith('video/'));
  }
  function play(it) {
    const url = api.fileURL(`/api/v1/vrs/programs/${it.prggid}/file`);
    player.replaceChildren(h('h2', {}, `Playing ${it.prgalias || it.prggid}`),
      h('video', { class: 'program', controls: true, autoplay: true, src: url }));
  }
  await load();
  return box;
}

// detail shows one record as a form in people's words: a template or a
// room as the grouped settings of a conference (forms.js), an account as
// its own form. What the form does not show (a template's composition,
// mixing, polling, ...) is sent back as the record had it, so saving
// changes nothing else.
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
  if (r.account) return accountForm(ctx, section, r, id, rec, sch);
  const props = sch.properties;
  const settingsBox = h('div', {}, forms.settings(props, rec));
  const inviteText = (rec.invite_members || []).map((m) => m.account).join('\n');
  const invite = props.invite_members && h('textarea', { id: 'invite', rows: 3, placeholder: 'one per line: an E.164 number or an IP address' }, inviteText);
  const form = h('form', { class: 'card edit', 'aria-label': `${r.title}: ${isNew ? 'new' : id}` },
    h('h1', {}, `${r.title}: ${isNew ? 'new' : (rec.name || id)}`),
    h('div', { class: 'field' }, h('label', { for: 'f-name' }, 'Name'),
      h('input', { id: 'f-name', name: 'name', required: true, maxlength: 64, value: rec.name || '' })),
    invite && h('div', { class: 'field' }, h('label', { for: 'invite' }, 'Terminals to call'), invite,
      h('small', {}, 'called when a conference starts from it')),
    settingsBox,
    h('div', { class: 'row' }, h('button', {}, isNew ? 'Create' : 'Save'), h('a', { href: `#/${section}` }, 'Back to the list')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const p = {};
    // Kept as the record had them: the fields of the schema this form does
    // not show (a room's state, a template's composition), so that saving
    // changes only what the form shows.
    for (const n of Object.keys(props)) if (rec[n] !== undefined && rec[n] !== null) p[n] = rec[n];
    Object.assign(p, forms.values(settingsBox), { name: form.elements.name.value });
    if (props.encrypted_key && p.encrypted_key === undefined) p.encrypted_key = '';
    if (invite) {
      const old = new Map((rec.invite_members || []).map((m) => [m.account, m]));
      p.invite_members = members(invite.value, 1).map((m) => old.get(m.account) || m);
    }
    for (const n of Object.keys(p)) if (!props[n]) delete p[n];
    const target = isNew ? path : fill(path, id);
    const args = sch.style === 'params' ? { params: p } : p;
    const res = await attempt(() => api.call(method, target, args), isNew ? 'Created.' : 'Saved.');
    if (res !== undefined) ctx.go(`#/${section}`);
  });
  return form;
}

// ACCOUNT are the fields of an account's form (reference 08 "创建账号").
const ACCOUNT = [
  { name: 'account', label: 'User name', help: 'used to log in; it cannot change later', kind: 'text', required: true, autocomplete: 'off', create: true },
  { name: 'name', label: 'Full name', kind: 'text', required: true },
  { name: 'password', label: 'Password', help: 'letters, digits, _ and . only', kind: 'secret', required: true, create: true },
  { name: 'enable', label: 'Can log in', kind: 'check', def: 1 },
  { name: 'email', label: 'E-mail', kind: 'text', type: 'email' },
  { name: 'mobile', label: 'Mobile', kind: 'text', type: 'tel' },
  { name: 'binded', label: 'Number (E.164)', kind: 'choice', def: 2, options: [[2, 'Give one automatically'], [1, 'The one below'], [0, 'None']] },
  { name: 'e164', label: 'E.164 number', help: 'when "The one below" is chosen', kind: 'text' },
  { name: 'limited', label: 'Guest user', kind: 'check', def: 0 },
];

// accountForm creates or edits an account; an existing one also gets a
// new password here (PUT .../password, reference 08 "重置密码").
function accountForm(ctx, section, r, id, rec, sch) {
  const isNew = id === 'new';
  const specs = ACCOUNT.filter((s) => sch.properties[s.name] && (isNew || !s.create));
  const box = h('div', {}, specs.map((s) => forms.input(s, rec[s.name])));
  const form = h('form', { class: 'card edit account', 'aria-label': `${r.title}: ${isNew ? 'new' : id}` },
    h('h1', {}, isNew ? 'New account' : `Account ${rec.account || id}`),
    !isNew && h('p', { class: 'meta' }, rec.name || ''),
    box,
    h('div', { class: 'row' }, h('button', { id: 'save-account' }, isNew ? 'Create' : 'Save'), h('a', { href: `#/${section}` }, 'Back to the list')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const p = {};
    for (const el of box.querySelectorAll('[name]')) {
      if (el.type === 'checkbox') p[el.name] = el.checked ? 1 : 0;
      else if (el.value !== '') p[el.name] = el.dataset.kind === 'int' ? Number(el.value) : el.value;
    }
    if (p.binded !== 1) delete p.e164;
    const res = await attempt(() => api.call(isNew ? r.create[0] : r.update[0], isNew ? r.create[1] : fill(r.update[1], id), { params: p }),
      isNew ? `Account ${p.account} created.` : 'Saved.');
    if (res !== undefined) ctx.go(`#/${section}`);
  });
  if (isNew) return form;
  const pw = h('input', { id: 'new-password', type: 'password', autocomplete: 'new-password', required: true });
  const reset = h('form', { class: 'card edit', 'aria-label': 'new password' },
    h('h2', {}, 'New password'),
    h('div', { class: 'field' }, h('label', { for: 'new-password' }, 'New password'), pw,
      h('small', {}, 'letters, digits, _ and . only; the account logs in with it from now on')),
    h('button', { id: 'set-password' }, 'Set the password'));
  reset.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (await attempt(() => api.put(`${fill(r.update[1], id)}/password`, { params: { value: pw.value } }), 'Password changed.') !== undefined) pw.value = '';
  });
  return h('div', { class: 'account-pages' }, form, reset);
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
          if (await ask(`Delete ${d.department_name}?`, 'Delete') && await attempt(() => api.del(`/api/v1/amc/departments/${d.department_moid}`), 'Department deleted.') !== undefined) load();
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
