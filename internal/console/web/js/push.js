// Push: a small Bayeux 1.0 client over WebSocket, speaking to CometD at
// /api/v1/publish as every integrator does (docs/push.md). The browser
// sends the login's SSO_COOKIE_KEY cookie with the upgrade request.
//
// Messages: handshake, then /meta/connect in a loop (each reply is
// answered with the next connect), /meta/subscribe for the channels the
// pages want. A 402 (unknown client) is answered by a new handshake and
// the subscriptions are sent again (docs/push.md "Connect, timeouts and
// expiry"); a refused handshake (10102) ends the login.
import { apiLevel } from './api.js';

export class Push {
  constructor({ onDenied, onStatus } = {}) {
    this.subs = new Map(); // channel -> Set of callbacks
    this.confirmed = new Map(); // channel -> resolvers waiting for the subscription's reply
    this.active = new Set(); // channels the server has confirmed
    this.onDenied = onDenied || (() => {});
    this.onStatus = onStatus || (() => {});
    this.id = 0;
    this.clientId = '';
    this.domain = '';
    this.closed = false;
    this.retry = 0;
    this.ready = new Promise((resolve) => { this.resolveReady = resolve; });
  }

  start() {
    this.closed = false;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/v1/publish`);
    this.ws = ws;
    ws.onopen = () => this.handshake();
    ws.onmessage = (ev) => {
      let msgs;
      try { msgs = JSON.parse(ev.data); } catch { return; }
      for (const m of Array.isArray(msgs) ? msgs : [msgs]) this.receive(m);
    };
    ws.onclose = () => {
      this.clientId = '';
      this.onStatus('offline');
      if (this.closed) return;
      const wait = Math.min(30000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.start(), wait);
    };
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  send(msgs) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msgs));
  }

  handshake() {
    this.send([{
      channel: '/meta/handshake', id: String(++this.id), version: '1.0', minimumVersion: '1.0',
      supportedConnectionTypes: ['websocket'], ext: { api_level: apiLevel() },
    }]);
  }

  connect(timeout) {
    const m = { channel: '/meta/connect', id: String(++this.id), clientId: this.clientId, connectionType: 'websocket' };
    if (timeout !== undefined) m.advice = { timeout };
    this.send([m]);
  }

  subscribeAll() {
    this.active.clear();
    const chans = [...this.subs.keys()];
    if (chans.length && this.clientId) {
      this.send([{ channel: '/meta/subscribe', id: String(++this.id), clientId: this.clientId, subscription: chans }]);
    }
  }

  // confirm records the server's reply to a subscription.
  confirm(m) {
    const chans = [].concat(m.subscription || []);
    if (!m.successful) console.warn('push', m.channel, m.error);
    for (const ch of chans) {
      if (m.successful) this.active.add(ch);
      const waiting = this.confirmed.get(ch) || [];
      this.confirmed.delete(ch);
      waiting.forEach((f) => f(Boolean(m.successful)));
    }
  }

  receive(m) {
    switch (m.channel) {
      case '/meta/handshake':
        if (!m.successful) {
          this.closed = true;
          this.onStatus('denied');
          this.onDenied(m.error || 'handshake denied');
          this.ws.close();
          return;
        }
        this.retry = 0;
        this.clientId = m.clientId;
        this.domain = m.ext?.user_domain_moid || '';
        this.onStatus('online');
        this.connect(0);
        this.subscribeAll();
        this.resolveReady(this.domain);
        return;
      case '/meta/connect':
        if (!m.successful) {
          const reconnect = m.advice?.reconnect;
          if (String(m.error || '').includes('login ended')) {
            this.closed = true;
            this.onDenied(m.error);
            this.ws.close();
          } else if (reconnect === 'none') {
            this.closed = true;
            this.ws.close();
          } else {
            this.handshake(); // 402 unknown client: handshake and subscribe again
          }
          return;
        }
        this.connect();
        return;
      case '/meta/subscribe':
        this.confirm(m);
        return;
      case '/meta/unsubscribe':
        return;
      default:
        if (m.data !== undefined) this.dispatch(m.channel, m.data);
    }
  }

  dispatch(channel, data) {
    for (const [pattern, fns] of this.subs) {
      if (matches(pattern, channel)) fns.forEach((f) => f(channel, data));
    }
  }

  // subscribe listens to a channel of the caller's domain: path is what
  // follows /userdomains/{d} (e.g. "/confs/1110000/**"). It returns a
  // function that unsubscribes; the function's confirmed promise tells
  // when the server has accepted the subscription.
  async subscribe(path, f) {
    const domain = await this.ready;
    const ch = `/userdomains/${domain}${path}`;
    let fns = this.subs.get(ch);
    const confirmed = this.active.has(ch) ? Promise.resolve(true) : new Promise((resolve) => {
      this.confirmed.set(ch, [...(this.confirmed.get(ch) || []), resolve]);
    });
    if (!fns) {
      fns = new Set();
      this.subs.set(ch, fns);
      if (this.clientId) this.send([{ channel: '/meta/subscribe', id: String(++this.id), clientId: this.clientId, subscription: ch }]);
    }
    fns.add(f);
    const unsubscribe = () => {
      fns.delete(f);
      if (fns.size === 0) {
        this.subs.delete(ch);
        this.active.delete(ch);
        if (this.clientId) this.send([{ channel: '/meta/unsubscribe', id: String(++this.id), clientId: this.clientId, subscription: ch }]);
      }
    };
    unsubscribe.confirmed = confirmed;
    return unsubscribe;
  }
}

// matches applies Bayeux wildcards: a last segment * is one segment, ** any depth.
export function matches(pattern, channel) {
  const p = pattern.split('/');
  const c = channel.split('/');
  const last = p[p.length - 1];
  if (last === '**') return c.length >= p.length && p.slice(0, -1).every((s, i) => s === c[i]);
  if (last === '*') return c.length === p.length && p.slice(0, -1).every((s, i) => s === c[i]);
  return pattern === channel;
}
