// The public API as the console uses it (docs/console.md "How it talks to
// conferd"): POST /console/login, which logs in and answers the
// account_token made for this login (of the node's own license) and sets
// the SSO_COOKIE_KEY session (an HttpOnly cookie the browser keeps), and the
// API-Level header that GET /api/vc/version names. Every call returns the
// reply's object or throws an APIError carrying error_code and description.

export class APIError extends Error {
  constructor(code, description, extra = {}) {
    super(description || `error ${code}`);
    this.code = code;
    this.extra = extra; // the reply's other fields (a locked login's unlocktime)
  }
  // The login or the token ended (seed 000 "Authentication"; A3 10002, 10102).
  get sessionEnded() { return this.code === 10002 || this.code === 10102; }
}

const state = {
  token: sessionStorage.getItem('confer.token') || '',
  level: 0,
  user: JSON.parse(sessionStorage.getItem('confer.user') || 'null'),
};

const listeners = new Set();
// onSessionEnded registers f(error), called when any call finds the login ended.
export function onSessionEnded(f) { listeners.add(f); }

export function user() { return state.user; }
export function apiLevel() { return state.level; }

// version reads the platform version and API-Level (public).
export async function version() {
  const r = await fetch('/api/vc/version');
  const body = await r.json();
  state.level = body.api_level || 0;
  return body;
}

function headers() {
  const h = {};
  if (state.level > 0) h['API-Level'] = String(state.level);
  return h;
}

async function decode(r) {
  let body;
  try {
    body = await r.json();
  } catch {
    throw new APIError(0, `HTTP ${r.status}: the reply is not JSON`);
  }
  if (body.success !== 1) {
    const err = new APIError(body.error_code || 0, body.description || 'request failed', body);
    if (err.sessionEnded) listeners.forEach((f) => f(err));
    throw err;
  }
  return body;
}

// call sends one request. GET sends params in the query; the others send a
// form body. A value that is an object or array travels JSON-encoded, so
// {params: {...}} is the form field params of seed 000 "Common rules" 4.
export async function call(method, path, params = {}) {
  const form = new URLSearchParams();
  if (state.token) form.set('account_token', state.token);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const init = { method, headers: headers(), credentials: 'same-origin' };
  let url = path;
  if (method === 'GET') {
    url += (path.includes('?') ? '&' : '?') + form.toString();
  } else {
    init.body = form;
  }
  return decode(await fetch(url, init));
}

// fileURL is a GET link with the token (a program's download, docs/recording.md
// "Download"): the browser sends the session cookie with it.
export function fileURL(path) {
  return `${path}?account_token=${encodeURIComponent(state.token)}`;
}

export const get = (path, params) => call('GET', path, params);
export const post = (path, params) => call('POST', path, params);
export const put = (path, params) => call('PUT', path, params);
export const del = (path, params) => call('DELETE', path, params);

// login logs in through the console's own login, which answers the
// login's account_token.
export async function login(username, password) {
  const body = await decode(await fetch('/console/login', {
    method: 'POST', credentials: 'same-origin', body: new URLSearchParams({ username, password }),
  }));
  state.token = body.account_token;
  state.user = { username: body.username, domain: body.userdomainname, domainMoid: body.userdomainmoid, moid: body.usermoid };
  sessionStorage.setItem('confer.token', state.token);
  sessionStorage.setItem('confer.user', JSON.stringify(state.user));
  return state.user;
}

// heartbeat keeps the login alive (reference 03 "保持心跳").
export const heartbeat = () => post('/api/v1/system/heartbeat');

// logout ends the session (POST /console/logout: the API has none).
export async function logout() {
  await fetch('/console/logout', { method: 'POST', credentials: 'same-origin' });
  forget();
}

// forget drops the token and user; the cookie stays until it expires, but
// without the token it opens nothing.
export function forget() {
  state.token = '';
  state.user = null;
  sessionStorage.removeItem('confer.token');
  sessionStorage.removeItem('confer.user');
}

let openapi;
async function document_() {
  if (!openapi) {
    const r = await fetch('/api/openapi.json', { headers: headers() });
    openapi = await r.json();
  }
  return openapi;
}

// exists tells whether the platform release serves an endpoint.
export async function exists(method, path) {
  return Boolean((await document_()).paths?.[path]?.[method.toLowerCase()]);
}

// schema returns the parameters of an endpoint from the public OpenAPI
// document (GET /api/openapi.json): {properties, required, style}, style
// "params" when they travel as the JSON form field params, "form" for
// plain form fields, "query" for a query string.
export async function schema(method, path) {
  const op = (await document_()).paths?.[path]?.[method.toLowerCase()];
  if (!op) return { properties: {}, required: [], style: 'form' };
  const form = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
  const cs = form?.properties?.params?.contentSchema;
  if (cs) return { properties: cs.properties || {}, required: cs.required || [], style: 'params' };
  if (form) {
    const { account_token: _, ...props } = form.properties || {};
    return { properties: props, required: form.required || [], style: 'form' };
  }
  const props = {};
  for (const p of op.parameters || []) if (p.in === 'query') props[p.name] = { ...p.schema, description: p.description };
  return { properties: props, required: [], style: 'query' };
}
