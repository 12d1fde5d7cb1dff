// The console's shell: login, the section router (location.hash), the
// session's heartbeat and its end, and the push connection.
import * as api from './api.js';
import { Push } from './push.js';
import { h, message, clearMessages, attempt } from './ui.js';
import { runningList, bookedList, bookedPage, createPage } from './confs.js';
import { livePage } from './live.js';
import { adminPage } from './admin.js';
import { capacityPage } from './capacity.js';
import { historyList, historyPage } from './history.js';
import { auditPage } from './audit.js';
import { wallsPage } from './walls.js';

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
  // The reason (an expired login, a refused push subscription) goes to the
  // browser's console; the page says what to do.
  console.info('session ended:', why);
  loginPage('Your session has ended. Please log in again.');
  ending = false;
}

api.onSessionEnded((e) => ended(e.message));

// loginError is what the login form says of a refused login. A wrong
// password (10101) and an unknown user (19002) say the same, so that the
// form does not tell which user names exist.
function loginError(e) {
  if (!(e instanceof api.APIError)) return e.message;
  switch (e.code) {
    case 10101: case 19002: case 19001: return 'Wrong user name or password.';
    case 90423: return `Too many failed logins: this account is locked${e.extra?.unlocktime ? ` until ${new Date(e.extra.unlocktime).toLocaleTimeString()}` : ''}. An administrator can unlock it: a new password on its account page, or conferd account unlock.`;
    case 90403: return 'This account cannot log in: it is disabled. An administrator can enable it.';
    default: return e.message;
  }
}

function loginPage(note) {
  shown++;
  if (leave) { leave(); leave = null; }
  clearMessages();
  const status = h('p', { id: 'login-status', class: 'form-error', role: 'alert', hidden: !note }, note || '');
  const form = h('form', { class: 'login card', 'aria-label': 'log in' },
    h('h1', {}, 'Confer console'),
    h('div', { class: 'field' }, h('label', { for: 'username' }, 'User name'),
      h('input', { id: 'username', name: 'username', autocomplete: 'username', required: true })),
    h('div', { class: 'field' }, h('label', { for: 'password' }, 'Password'),
      h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    status,
    h('button', { type: 'submit', id: 'login' }, 'Log in'));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clearMessages();
    status.hidden = true;
    try {
      const user = await api.login(form.username.value, form.password.value);
      signedIn(user);
      if (!location.hash || location.hash === '#/login') location.hash = '#/confs';
      else route();
    } catch (e) {
      status.textContent = loginError(e);
      status.hidden = false;
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
    case 'booked': page = id ? bookedPage(ctx, id) : bookedList(ctx); break;
    case 'new': page = createPage(ctx); break;
    case 'conf': page = livePage(ctx, id); break;
    case 'capacity': page = capacityPage(ctx); break;
    case 'audit': page = auditPage(ctx); break;
    case 'walls': page = wallsPage(ctx); break;
    case 'history': page = id ? historyPage(ctx, decodeURIComponent(id)) : historyList(ctx); break;
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
