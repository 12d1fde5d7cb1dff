// The capacity page: what the platform can still take, from the public
// API only (docs/console.md "Capacity"): the platform domain's ports
// (GET /api/v1/nms/platform_domains/{moid}/mediaresources: --max-ports and
// the ports running conferences take), the conferences of each size that
// could start now (GET /api/v1/mc/resources) and the running conferences
// (vc). It follows the conference list channel.
import * as api from './api.js';
import { h, attempt, table } from './ui.js';

// gauge is a labelled <meter> of used out of total (a native element:
// the page's Content-Security-Policy allows no inline style).
function gauge(id, label, used, total) {
  const pct = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return h('div', { class: 'gauge', id },
    h('div', { class: 'gauge-head' }, h('label', { for: `${id}-meter` }, label), h('span', { class: 'gauge-figure' }, `${used} of ${total} (${pct} %)`)),
    h('meter', { id: `${id}-meter`, min: 0, max: Math.max(total, 1), value: used, high: Math.max(total, 1) * 0.8, optimum: 0 }));
}

async function platformPorts() {
  const d = await api.get('/api/v1/nms/domains').catch(() => null);
  for (const dom of d?.domains || []) {
    const r = await api.get(`/api/v1/nms/platform_domains/${encodeURIComponent(dom.moid)}/mediaresources`).catch(() => null);
    if (r) return r;
  }
  return null;
}

export async function capacityPage(ctx) {
  const body = h('div', { class: 'capacity-body' });
  const el = h('section', { class: 'page capacity', 'aria-label': 'capacity' },
    h('div', { class: 'page-head' }, h('h1', {}, 'Capacity')), body);
  async function load() {
    const [ports, res, confs] = await Promise.all([
      platformPorts(),
      api.exists('GET', '/api/v1/mc/resources').then((ok) => (ok ? attempt(() => api.get('/api/v1/mc/resources')) : null)),
      attempt(() => api.get('/api/v1/vc/confs', { start: 0, count: 0 })),
    ]);
    const running = confs?.total ?? (confs?.confs || []).length;
    body.replaceChildren(
      ports ? gauge('ports', 'Terminal ports in use', ports.used_port, ports.total_port) : h('p', { class: 'empty' }, 'The port figures are not available to this account.'),
      h('p', { class: 'meta', id: 'running' }, `${running} running conference${running === 1 ? '' : 's'} in this user domain`),
      res && h('h2', {}, 'Conferences that could start now'),
      res && table([
        { title: 'Size', get: (r) => r.name },
        { title: 'Running', get: (r) => String(r.used) },
        { title: 'Could start now', get: (r) => String(Math.max(0, r.total - r.used)) },
      ], res.resources || [], 'no resource figures'));
  }
  await load();
  let cleanup;
  if (ctx.push()) {
    let timer;
    const unsub = ctx.push().subscribe('/confs', () => { clearTimeout(timer); timer = setTimeout(load, 200); });
    cleanup = () => { clearTimeout(timer); unsub.then((f) => f()); };
  }
  return { el, cleanup };
}
