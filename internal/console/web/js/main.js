// The console's shell: login, the section router (location.hash), the
// session's heartbeat and its end, and the push connection.
import * as api from './api.js';
import { Push } from './push.js';
import { h, message, clearMessages, attempt } from './ui.js';
import { runningList, bookedList, createPage } from './confs.js';
import { livePage } from './live.js';
import { adminPage } from './admin.js';

const view = document.getElementById('view');
let push;
let heartbeat;
let leave = null; // cleanup of the current page (push subscriptions)
let shown = 0; // counts pages shown: a page loaded after another was shown is dropped

export const ctx = { push: () => push, go: (hash) => { location.hash = hash; } };

function setPushState(s) {
  const dot = document.getElementById('push-state');
  dot.className = `dot ${s}`;
  dot.title = `push ${s}`;
  dot.setAttribute('aria-label', `push ${s}`);
}

function signedIn(user) {
  document.getElementById('top').hidden = false;
  document.getElementById('who').textContent = user.domain ? `${user.username} · ${user.domain}` : user.username;
  push = new Push({ onDenied: (e) => ended(`push refused: ${e}`), onStatus: setPushState });
  push.start();
  clearInterval(heartbeat);
  // Reference 03: the login lives 30 idle minutes; an open console keeps it.
  heartbeat = setInterval(() => api.heartbeat().catch(() => {}), 5 * 60 * 1000);
}

function signedOut() {
  clearInterval(heartbeat);
  if (push) push.stop();
  push = null;
  api.forget();
  document.getElementById('top').hidden = true;
}

let ending = false;
// ended shows the login form after the session or token ran out.
function ended(why) {
  if (ending) return;
  ending = true;
  signedOut();
  loginPage(`Your session has ended (${why}). Please log in again.`);
  ending = false;
}

api.onSessionEnded((e) => ended(e.message));

function loginPage(note) {
  shown++;
  if (leave) { leave(); leave = null; }
  clearMessages();
  if (note) message(note, 'error');
  const form = h('form', { class: 'login card', 'aria-label': 'log in' },
    h('h1', {}, 'Confer console'),
    h('div', { class: 'field' }, h('label', { for: 'username' }, 'User name'),
      h('input', { id: 'username', name: 'username', autocomplete: 'username', required: true })),
    h('div', { class: 'field' }, h('label', { for: 'password' }, 'Password'),
      h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    h('button', { type: 'submit', id: 'login' }, 'Log in'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clearMessages();
    try {
      const user = await api.login(form.username.value, form.password.value);
      signedIn(user);
      if (!location.hash || location.hash === '#/login') location.hash = '#/confs';
      else route();
    } catch (e) {
      message(e.message, 'error');
    }
  });
  view.replaceChildren(form);
  form.username.focus();
}

async function route() {
  if (!api.user()) return loginPage();
  if (leave) { leave(); leave = null; }
  const mine = ++shown;
  const [, section, id] = (location.hash || '#/confs').split('/');
  for (const a of document.querySelectorAll('#top nav a')) {
    a.toggleAttribute('aria-current', a.getAttribute('href') === `#/${section}`);
  }
  view.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  let page;
  switch (section) {
    case 'booked': page = bookedList(ctx); break;
    case 'new': page = createPage(ctx); break;
    case 'conf': page = livePage(ctx, id); break;
    case 'templates': case 'rooms': case 'accounts': case 'programs': case 'nms':
      page = adminPage(ctx, section, id); break;
    default: page = runningList(ctx);
  }
  const { el, cleanup } = await page;
  if (mine !== shown) { cleanup?.(); return; } // the login form or another page came meanwhile
  leave = cleanup || null;
  view.replaceChildren(el);
}

document.getElementById('logout').addEventListener('click', async () => {
  await api.logout().catch(() => {});
  signedOut();
  loginPage();
  message('Logged out.', 'ok');
});
window.addEventListener('hashchange', () => {
  document.querySelectorAll('#messages .msg.error').forEach((m) => m.remove());
  route();
});

(async () => {
  await attempt(api.version);
  if (api.user()) {
    // A reload: the session may have ended meanwhile.
    try {
      await api.heartbeat();
      signedIn(api.user());
    } catch (e) {
      if (!(e instanceof api.APIError && e.sessionEnded)) signedOut();
      return loginPage();
    }
  }
  route();
})();
