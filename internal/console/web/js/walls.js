// The user domain's TV walls (docs/console.md "TV walls"): the walls of
// GET /api/v1/vc/hdus with their state, and for administrators Confer's
// extension to register one (POST /api/v1/vc/tv_walls), open its page on
// its screen and remove it (docs/live.md "TV walls").
import * as api from './api.js';
import { h, attempt, table, ask, message } from './ui.js';

const P = (o) => ({ params: o });

export async function wallsPage() {
  const body = h('div', { class: 'walls-body', 'aria-live': 'polite' });
  const id = h('input', { id: 'wall-id', name: 'hdu_id', required: true, pattern: '[0-9]{1,6}_[0-9]{1,6}', placeholder: '7_0' });
  const name = h('input', { id: 'wall-name', name: 'hdu_name', required: true, maxlength: 64, placeholder: 'Lobby screen' });
  const form = h('form', { class: 'filters', 'aria-label': 'register a TV wall' },
    h('div', { class: 'field' }, h('label', { for: 'wall-id' }, 'Wall id (device_channel)'), id),
    h('div', { class: 'field' }, h('label', { for: 'wall-name' }, 'Name'), name),
    h('button', { type: 'submit', id: 'wall-add' }, 'Register'));
  async function load() {
    const r = await attempt(() => api.get('/api/v1/vc/hdus'));
    if (!r) return;
    body.replaceChildren(table([
      { title: 'Wall', get: (w) => `${w.hdu_name} (${w.hdu_id})` },
      { title: 'Screen', get: (w) => (Number(w.online) === 1 ? 'online' : h('span', { class: 'refused' }, 'offline: open its page on the screen')) },
      { title: 'Use', get: (w) => (Number(w.occupy) === 1 ? 'showing a conference' : 'free') },
      { title: 'Page', get: (w) => h('a', { href: `/wall/${encodeURIComponent(w.hdu_id)}`, target: '_blank', rel: 'noopener' }, 'Open the wall page') },
      { title: '', get: (w) => h('button', { class: 'danger', dataset: { remove: w.hdu_id }, onclick: async () => {
        if (!(await ask(`Remove TV wall ${w.hdu_name}?`, 'Remove'))) return;
        try {
          await api.del(`/api/v1/vc/tv_walls/${encodeURIComponent(w.hdu_id)}`);
          message(`Removed ${w.hdu_name}.`, 'ok');
        } catch (e) { message(e.message, 'error'); }
        load();
      } }, 'Remove') },
    ], r.hdus || [], 'No TV wall.'));
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      await api.post('/api/v1/vc/tv_walls', P({ hdu_id: id.value.trim(), hdu_name: name.value.trim() }));
      message(`Registered ${name.value.trim()}: open its page on its screen.`, 'ok');
      id.value = ''; name.value = '';
    } catch (e) { message(e.message, 'error'); }
    load();
  });
  const el = h('section', { class: 'page walls', 'aria-label': 'TV walls' },
    h('div', { class: 'page-head' }, h('h1', {}, 'TV walls')),
    h('p', { class: 'meta' }, 'A registered wall is online while its page is open on its screen, logged in as a user of this domain. Until the first registration the domain has a simulated set of walls.'),
    form, body);
  await load();
  const timer = setInterval(load, 5000); // the screens' state changes without any push
  return { el, cleanup: () => clearInterval(timer) };
}
