// The audit trail: who changed what, from where, with what outcome
// (docs/operations.md "Audit trail"; docs/console.md "Audit"), from
// Confer's extension GET /api/v1/amc/audit, to the domain's
// administrators.
import * as api from './api.js';
import { h, table, pager, message } from './ui.js';

const pageSize = 50;

// actionName says an endpoint's name in words where it is a common one.
const actionNames = {
  'mc.confs.create': 'created a conference',
  'mc.confs.delete': 'ended or cancelled a conference',
  'vc.confs.mts.add': 'added terminals',
  'vc.confs.mts.delete': 'removed terminals',
  'vc.confs.online_mts.call': 'called terminals',
  'vc.confs.online_mts.hangup': 'hung up terminals',
  'vc.confs.mts.mute.update': 'muted or unmuted a terminal',
  'vc.confs.mts.silence.update': 'silenced or unsilenced a terminal',
  'vc.confs.mute.update': 'muted or unmuted everyone',
  'vc.confs.silence.update': 'silenced or unsilenced everyone',
  'vc.confs.speaker.update': 'set the speaker',
  'vc.confs.chairman.update': 'set the chair',
  'vc.confs.delay.update': 'delayed the end',
  'amc.accounts.create': 'created an account',
  'amc.accounts.update': 'changed an account',
  'amc.accounts.delete': 'deleted an account',
  'amc.accounts.password.update': 'set a password',
};

function when(s) {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export async function auditPage() {
  const results = h('div', { class: 'audit-results', 'aria-live': 'polite' });
  const field = (id, label, attrs = {}) => h('div', { class: 'field' }, h('label', { for: id }, label), h('input', { id, name: id, ...attrs }));
  const failed = h('input', { id: 'audit-failed', type: 'checkbox', name: 'failed' });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'search the audit trail' },
    field('audit-account', 'Account', { type: 'search' }),
    field('audit-action', 'Action', { type: 'search', placeholder: 'e.g. mute' }),
    field('audit-conf', 'Conference number', { type: 'search', inputmode: 'numeric' }),
    h('div', { class: 'field check' }, failed, h('label', { for: 'audit-failed' }, 'Refused only')),
    h('button', { type: 'submit', id: 'audit-search' }, 'Search'));
  let start = 0;
  async function load() {
    const q = { start, count: pageSize };
    const v = (id) => form.querySelector(`#${id}`).value.trim();
    if (v('audit-account')) q.account = v('audit-account');
    if (v('audit-action')) q.action = v('audit-action');
    if (v('audit-conf')) q.conf_id = v('audit-conf');
    if (failed.checked) q.failed = 1;
    let r;
    try {
      r = await api.get('/api/v1/amc/audit', q);
    } catch (e) {
      if (e instanceof api.APIError && e.code === 20005) {
        results.replaceChildren(h('p', { class: 'empty' }, 'Only an administrator of the user domain can read its audit trail.'));
        return;
      }
      message(e.message, 'error');
      return;
    }
    const total = r.total || 0;
    results.replaceChildren(
      table([
        { title: 'When', get: (e) => when(e.time) },
        { title: 'Who', get: (e) => e.account },
        { title: 'Did', get: (e) => h('span', { title: e.action }, actionNames[e.action] || e.action) },
        { title: 'On', get: (e) => e.target },
        { title: 'From', get: (e) => e.client },
        { title: 'Outcome', get: (e) => (Number(e.error_code) === 0 ? 'done' : h('span', { class: 'refused' }, `refused (${e.error_code})`)) },
      ], r.entries || [], 'No action matches.'),
      ...(total > pageSize ? [pager(start, pageSize, total, (n) => { start = n; load(); })] : []));
  }
  form.addEventListener('submit', (ev) => { ev.preventDefault(); start = 0; load(); });
  const el = h('section', { class: 'page audit', 'aria-label': 'audit trail' },
    h('div', { class: 'page-head' }, h('h1', {}, 'Audit trail')),
    h('p', { class: 'meta' }, 'Every change made through the API or this console, done or refused, newest first.'),
    form, results);
  await load();
  return { el };
}
