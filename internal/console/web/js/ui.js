// Small DOM helpers: element building, messages, forms, paged lists.
import { APIError } from './api.js';

// h builds an element: h('button', {onclick, class: 'x'}, 'text', child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// message shows a status line at the top of the page; errors keep the
// platform's description (with its code) as the API sent it.
export function message(text, kind = 'info') {
  const box = document.getElementById('messages');
  const el = h('div', { class: `msg ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text,
    h('button', { class: 'close', 'aria-label': 'dismiss', onclick: () => el.remove() }, '×'));
  box.append(el);
  while (box.children.length > 4) box.firstElementChild.remove(); // the newest four
  if (kind !== 'error') setTimeout(() => el.remove(), 6000);
  return el;
}

export function clearMessages() { document.getElementById('messages').replaceChildren(); }

// attempt runs an action and reports its failure; it returns the result or
// undefined. A session that ended is handled by the shell (main.js).
export async function attempt(f, done) {
  try {
    const r = await f();
    if (done) message(done, 'ok');
    return r;
  } catch (e) {
    if (!(e instanceof APIError && e.sessionEnded)) message(e.message, 'error');
    return undefined;
  }
}

// formValues reads the fields of a form: integers as numbers, empty text
// left out.
export function formValues(form) {
  const out = {};
  for (const el of form.querySelectorAll('input[name], select[name], textarea[name]')) {
    if (el.type === 'checkbox') { out[el.name] = el.checked ? 1 : 0; continue; }
    if (el.value === '') continue;
    out[el.name] = el.dataset.kind === 'integer' ? Number(el.value) : el.value;
  }
  return out;
}

// pager renders "previous / next" for a list of total items seen count at a time.
export function pager(start, count, total, go) {
  const pages = Math.max(1, Math.ceil(total / count));
  const page = Math.floor(start / count) + 1;
  return h('nav', { class: 'pager', 'aria-label': 'pages' },
    h('button', { disabled: start === 0, onclick: () => go(Math.max(0, start - count)) }, '‹ previous'),
    h('span', {}, `page ${page} of ${pages} · ${total} in all`),
    h('button', { disabled: start + count >= total, onclick: () => go(start + count) }, 'next ›'));
}

// table renders rows of objects with columns [{title, get(row)}].
export function table(cols, rows, empty = 'nothing yet') {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h('table', { class: 'list' },
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c.title)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, cols.map((c) => h('td', { 'data-label': c.title || undefined }, c.get(r)))))));
}

// dialog opens a modal <dialog> with content; it resolves when closed.
export function dialog(title, content) {
  const d = h('dialog', { 'aria-label': title }, h('h2', {}, title), content,
    h('form', { method: 'dialog', class: 'dialog-close' }, h('button', {}, 'Close')));
  document.body.append(d);
  d.addEventListener('close', () => d.remove());
  d.showModal();
  return d;
}

// ask asks a question in an in-page dialog (not the browser's confirm
// box, which blocks the page and cannot be styled or read by a screen
// reader as part of it); it resolves true when yes is chosen.
export function ask(question, yes, no = 'Cancel') {
  return new Promise((resolve) => {
    let answer = false;
    const d = h('dialog', { class: 'ask', 'aria-label': question, role: 'alertdialog' },
      h('p', {}, question),
      h('form', { method: 'dialog' },
        h('button', { class: 'danger confirm-yes', onclick: () => { answer = true; } }, yes),
        h('button', { class: 'confirm-no', autofocus: true }, no)));
    document.body.append(d);
    d.addEventListener('close', () => { d.remove(); resolve(answer); });
    d.showModal();
  });
}

export const yesNo = (v) => (Number(v) === 1 ? 'yes' : 'no');
