// Confer join page: publish the camera and microphone over WHIP, watch each
// other participant over WHEP, follow the room through the long-polled
// state endpoint, and heal lost connections: an ICE restart first, then a
// new publication (docs/media.md, "The join page").
"use strict";

const confID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);

const me = {
  stream: null, pub: null, screen: null, session: "", mtID: "", name: "", left: false,
  selfMuted: false, camOff: false, hand: false, volume: 1, rejoining: null, rejoins: 0, joinedAt: 0,
  pollAbort: null, polling: false, audio: null, timer: 0,
  // This page's client id (?client=): a rejoin with it is the same
  // terminal. Kept in memory only: a reload, or a duplicated tab, is a
  // new participant.
  client: [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join(""),
};
const subs = new Map(); // key ("mt:N" or "dual") -> {pc, location, etag, tile, stream, frames, stall, retry}
const refused = new Map(); // key -> time before which a failed subscription is not retried
let state = { version: -1, participants: [], messages: [], removed: [] };
let iceServers = [];
let password = "";
const devices = { camera: "", mic: "", speaker: "" };

// auth: the link's token, else the logged-in user's cookie (sent by fetch
// on its own); the conference password once asked for.
function auth(extra) {
  const h = Object.assign({}, extra || {});
  if (token) h.Authorization = "Bearer " + token;
  if (password) h["X-Confer-Password"] = password;
  return h;
}

function status(id, text) { $(id).textContent = text || ""; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- Camera, microphone and speaker ----

function constraints(kind) {
  if (kind === "video") return devices.camera ? { deviceId: { exact: devices.camera }, width: 1280, height: 720 } : { width: 1280, height: 720 };
  return devices.mic ? { deviceId: { exact: devices.mic } } : true;
}

async function preview() {
  try {
    me.stream = await navigator.mediaDevices.getUserMedia({ audio: constraints("audio"), video: constraints("video") });
  } catch (e) {
    try { // a camera in use elsewhere, or none: the microphone alone
      me.stream = await navigator.mediaDevices.getUserMedia({ audio: constraints("audio") });
      status("lobby-status", "No camera (" + e.name + "): joining with the microphone only.");
    } catch (e2) {
      status("lobby-status", "No camera or microphone: joining to watch only (" + e2.name + ").");
    }
  }
  if (me.stream) {
    $("preview").srcObject = me.stream;
    meterLocal();
  }
  await listDevices();
}

// listDevices fills the three selects (labels are known once the page
// may use the devices); the speaker is offered where setSinkId exists.
async function listDevices() {
  let all = [];
  try { all = await navigator.mediaDevices.enumerateDevices(); } catch (e) { return; }
  const fill = (sel, kind, current) => {
    const list = all.filter((d) => d.kind === kind && d.deviceId);
    sel.replaceChildren(...list.map((d, i) => {
      const o = document.createElement("option");
      o.value = d.deviceId;
      o.textContent = d.label || kind + " " + (i + 1);
      return o;
    }));
    if (current && list.some((d) => d.deviceId === current)) sel.value = current;
    sel.disabled = list.length === 0; // one device is shown, as chosen
  };
  const track = (kind) => me.stream && me.stream.getTracks().find((t) => t.kind === kind);
  const settingOf = (kind) => { const t = track(kind); return t ? t.getSettings().deviceId : ""; };
  fill($("camera-select"), "videoinput", devices.camera || settingOf("video"));
  fill($("mic-select"), "audioinput", devices.mic || settingOf("audio"));
  fill($("speaker-select"), "audiooutput", devices.speaker);
  $("speaker-row").hidden = !("setSinkId" in HTMLMediaElement.prototype) || !all.some((d) => d.kind === "audiooutput");
}

// switchDevice replaces the camera's or the microphone's track, in the
// preview and, through replaceTrack, in the publication: no renegotiation.
async function switchDevice(kind) {
  if (kind === "video") devices.camera = $("camera-select").value;
  else devices.mic = $("mic-select").value;
  let fresh;
  try {
    const got = await navigator.mediaDevices.getUserMedia(kind === "video" ? { video: constraints("video") } : { audio: constraints("audio") });
    fresh = got.getTracks()[0];
  } catch (e) {
    status(me.pub ? "room-status" : "lobby-status", "Cannot use that " + (kind === "video" ? "camera" : "microphone") + ": " + e.name);
    return;
  }
  if (!me.stream) me.stream = new MediaStream();
  fresh.enabled = kind === "video" ? !me.camOff : !(mine() && mine().muted);
  // The sender first: a sender whose track ended stops encoding.
  if (me.pub) {
    for (const s of me.pub.pc.getSenders()) if (s.track && s.track.kind === kind) await s.replaceTrack(fresh);
  }
  for (const old of me.stream.getTracks().filter((t) => t.kind === kind)) {
    me.stream.removeTrack(old);
    old.stop();
  }
  me.stream.addTrack(fresh);
  $("preview").srcObject = me.stream;
  if (kind === "audio") meterLocal();
}

async function switchSpeaker() {
  devices.speaker = $("speaker-select").value;
  for (const v of document.querySelectorAll(".tile video")) {
    if (v.setSinkId) await v.setSinkId(devices.speaker).catch(() => {});
  }
}

// meterLocal measures the microphone (the lobby's meter, the own tile).
function meterLocal() {
  const track = me.stream && me.stream.getAudioTracks()[0];
  if (!track || !window.AudioContext) return;
  if (!me.audio) me.audio = { ctx: new AudioContext(), src: null, an: null, buf: null };
  const a = me.audio;
  if (a.src) a.src.disconnect();
  a.src = a.ctx.createMediaStreamSource(new MediaStream([track]));
  a.an = a.ctx.createAnalyser();
  a.an.fftSize = 512;
  a.buf = new Float32Array(a.an.fftSize);
  a.src.connect(a.an);
  a.ctx.resume().catch(() => {});
  if (!me.timer) me.timer = setInterval(tick, 250);
}

// localLevel is the microphone's RMS level, 0 to 1.
function localLevel() {
  const a = me.audio;
  if (!a || !a.an) return 0;
  a.an.getFloatTimeDomainData(a.buf);
  let sum = 0;
  for (const x of a.buf) sum += x * x;
  return Math.min(1, Math.sqrt(sum / a.buf.length) * 4);
}

// ---- WHIP, WHEP and ICE ----

function waitGathering(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, 2000); // send what was gathered; the SFU has host candidates
  });
}

// httpFail is a refused request: its status and the server's words.
class httpFail extends Error {
  constructor(status, body) { super(body || String(status)); this.status = status; }
}

// negotiate posts the offer of pc to url (WHIP or WHEP, RFC 9725 4.2).
async function negotiate(pc, url) {
  await pc.setLocalDescription(await pc.createOffer());
  await waitGathering(pc);
  const resp = await fetch(url, {
    method: "POST", headers: auth({ "Content-Type": "application/sdp" }), body: pc.localDescription.sdp,
  });
  const body = await resp.text();
  if (resp.status !== 201) throw new httpFail(resp.status, body.trim());
  await pc.setRemoteDescription({ type: "answer", sdp: body });
  return { location: resp.headers.get("Location"), mtID: resp.headers.get("X-Confer-Mt-Id"), etag: resp.headers.get("ETag") };
}

// ICE restart (RFC 9725 section 4.4.2): a new offer with fresh ICE
// credentials, its ufrag, pwd and candidates sent in a PATCH
// (application/trickle-ice-sdpfrag, If-Match: *); the server answers with
// its own new credentials and candidates, applied to the answer we hold.
// Returns the session's new ETag.
async function restartIce(entry) {
  const pc = entry.pc;
  const offer = await pc.createOffer({ iceRestart: true });
  await pc.setLocalDescription(offer);
  await waitGathering(pc);
  const local = pc.localDescription.sdp.split(/\r?\n/);
  const attr = (lines, name) => (lines.find((l) => l.startsWith("a=" + name + ":")) || "").slice(name.length + 3);
  const firstM = local.findIndex((l) => l.startsWith("m="));
  const nextM = local.findIndex((l, i) => i > firstM && l.startsWith("m="));
  const section = local.slice(firstM, nextM < 0 ? local.length : nextM);
  const frag = ["a=ice-ufrag:" + attr(local, "ice-ufrag"), "a=ice-pwd:" + attr(local, "ice-pwd"), local[firstM],
    "a=mid:" + attr(section, "mid"), ...section.filter((l) => l.startsWith("a=candidate:")), "a=end-of-candidates", ""].join("\r\n");
  const resp = await fetch(entry.location, {
    method: "PATCH", headers: auth({ "Content-Type": "application/trickle-ice-sdpfrag", "If-Match": "*" }), body: frag,
  });
  if (resp.status !== 200) throw new httpFail(resp.status, "ICE restart refused");
  const answer = (await resp.text()).split(/\r?\n/);
  const ufrag = attr(answer, "ice-ufrag"), pwd = attr(answer, "ice-pwd");
  const cands = answer.filter((l) => l.startsWith("a=candidate:"));
  // The answer we hold, with the new credentials and candidates.
  const out = [];
  for (const l of pc.remoteDescription.sdp.split(/\r?\n/)) {
    if (l.startsWith("a=candidate:") || l === "a=end-of-candidates") continue;
    if (l.startsWith("a=ice-ufrag:")) out.push("a=ice-ufrag:" + ufrag);
    else if (l.startsWith("a=ice-pwd:")) out.push("a=ice-pwd:" + pwd);
    else if (l.startsWith("a=mid:")) out.push(l, ...cands);
    else if (l !== "") out.push(l);
  }
  await pc.setRemoteDescription({ type: "answer", sdp: out.join("\r\n") + "\r\n" });
  entry.etag = resp.headers.get("ETag") || entry.etag;
  return entry.etag;
}

// connectedWithin resolves true once pc's ICE is connected again, false
// after ms.
function connectedWithin(pc, ms) {
  const ok = () => pc.iceConnectionState === "connected" || pc.iceConnectionState === "completed";
  if (ok()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => { pc.removeEventListener("iceconnectionstatechange", on); resolve(ok()); }, ms);
    const on = () => { if (ok()) { clearTimeout(t); pc.removeEventListener("iceconnectionstatechange", on); resolve(true); } };
    pc.addEventListener("iceconnectionstatechange", on);
  });
}

// heal keeps one connection up. When ICE drops (a network change, a NAT
// rebinding) it restarts ICE on the same session, before the server gives
// the session up (DisconnectedTimeout + FailedTimeout, 8 s by default),
// and again every 10 s while ICE stays down (a slow machine is not a lost
// session). When the server no longer knows the session (404: a conferd
// restart, or the session ended) or closes it, lost() is called: the page
// publishes again (rejoin) or subscribes again.
function heal(entry, lost) {
  let busy = false;
  const down = () => entry.pc.iceConnectionState === "disconnected" || entry.pc.iceConnectionState === "failed" ||
    entry.pc.connectionState === "failed";
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      while (down() && !me.left && !entry.closed && entry.location) {
        await restartIce(entry);
        await connectedWithin(entry.pc, 10000);
      }
    } catch (e) {
      if (!entry.closed && !me.left) lost(e.status === 404 ? "the server ended the session" : e.message);
    } finally {
      busy = false;
    }
  };
  entry.pc.addEventListener("iceconnectionstatechange", check);
  entry.pc.addEventListener("connectionstatechange", check);
  // The server closing the session (DTLS close_notify) needs no ICE
  // restart: the session is gone.
  const t = entry.pc.getTransceivers().map((x) => x.receiver.transport).find(Boolean);
  if (t) t.addEventListener("statechange", () => {
    if (t.state === "closed" && !entry.closed && !me.left) lost("the server closed the session");
  });
}

// ---- Joining, and joining again ----

// publish opens the page's publication (WHIP with the camera and
// microphone, else a WHEP session to watch) as a participant.
async function publish() {
  const pc = new RTCPeerConnection({ iceServers });
  let path;
  if (me.stream && me.stream.getTracks().length) {
    for (const track of me.stream.getTracks()) {
      const init = { direction: "sendonly", streams: [me.stream] };
      if (track.kind === "video") {
        // Simulcast: three layers the SFU picks from per subscriber.
        init.sendEncodings = [
          { rid: "q", scaleResolutionDownBy: 4, maxBitrate: 150000 },
          { rid: "h", scaleResolutionDownBy: 2, maxBitrate: 500000 },
          { rid: "f", maxBitrate: 1500000 },
        ];
      }
      pc.addTransceiver(track, init);
    }
    path = "/rtc/whip/";
  } else {
    pc.addTransceiver("audio", { direction: "recvonly" });
    pc.addTransceiver("video", { direction: "recvonly" });
    path = "/rtc/whep/";
  }
  try {
    const r = await negotiate(pc, path + encodeURIComponent(confID) + "?kind=browser&client=" + me.client + "&name=" + encodeURIComponent(me.name));
    const entry = { pc, location: r.location, etag: r.etag, closed: false };
    me.pub = entry;
    me.session = r.location.split("/").pop();
    me.mtID = r.mtID;
    heal(entry, (why) => rejoin(why));
  } catch (e) {
    pc.close();
    throw e;
  }
  // The page's own mute and camera outlive a rejoin.
  if (me.camOff) selfControl({ video: true }).catch(() => {});
  if (me.selfMuted) selfControl({ audio: true }).catch(() => {});
  if (me.hand) post("/hand", { raised: true }).catch(() => {});
}

let previewed = Promise.resolve();

async function join(ev) {
  ev.preventDefault();
  $("join").disabled = true;
  await previewed; // camera and microphone asked for before publishing
  password = $("password").value;
  me.name = $("name").value.trim();
  try {
    await publish();
  } catch (e) {
    if (e.message.includes("password")) $("password-row").hidden = false;
    status("lobby-status", "Could not join: " + e.message);
    $("join").disabled = false;
    return;
  }
  me.joinedAt = Date.now();
  for (const id of ["mute", "camera"]) $(id).disabled = !me.stream;
  $("share").disabled = !navigator.mediaDevices || !navigator.mediaDevices.getDisplayMedia;
  $("device-slot").append($("devices"));
  $("lobby").hidden = true;
  $("room").hidden = false;
  document.querySelector("main").classList.add("in-room");
  addTile("me", "You", me.stream, true);
  new ResizeObserver(fitTiles).observe($("stage"));
  if (!me.timer) me.timer = setInterval(tick, 250);
  poll();
}

// rejoin publishes again after the publication was lost (the server ended
// it, restarted, or ICE could not be restored): the old session is let go,
// the subscriptions follow the new one. Retried with a growing pause until
// it works or the conference is gone.
function rejoin(why) {
  if (me.rejoining || me.left) return me.rejoining;
  me.rejoining = (async () => {
    console.info("rejoining:", why);
    // A hang-up or the conference's end also closes the connection: the
    // room says which, and then the page does not join again.
    const gone = await goneWhy();
    if (gone) { leave(gone); return; }
    quality("lost", "Reconnecting…");
    status("room-status", "Connection lost. Reconnecting…");
    const old = me.pub;
    if (old) {
      old.closed = true;
      old.pc.close();
      fetch(old.location, { method: "DELETE", headers: auth() }).catch(() => {});
    }
    stopShare();
    for (const key of [...subs.keys()]) unwatch(key, true);
    refused.clear();
    for (let pause = 500; !me.left; pause = Math.min(pause * 2, 5000)) {
      try {
        await publish();
        break;
      } catch (e) {
        if (e.status === 404) { leave("The conference has ended."); break; }
        if (e.status === 401 || e.status === 403) { leave("You can no longer join this conference (" + e.message + ")."); break; }
        status("room-status", "Reconnecting… (" + e.message + ")");
        await sleep(pause);
      }
    }
    if (me.left) return;
    me.rejoins++;
    status("room-status", "");
    state = { version: -1, participants: [], messages: state.messages, removed: [] };
    if (me.pollAbort) me.pollAbort.abort(); // the next poll reads the new session's room
  })().finally(() => { me.rejoining = null; });
  return me.rejoining;
}

// goneWhy asks the room whether the page's participant was removed or
// the conference ended: the message to leave with, else "" (also when the
// node cannot be reached: the rejoin retries).
async function goneWhy() {
  try {
    const resp = await fetch("/rtc/state/" + encodeURIComponent(confID), { headers: auth() });
    if (resp.status === 404) return "The conference has ended.";
    if (resp.status === 401) return "This link no longer admits you to the conference.";
    if (resp.status !== 200) return "";
    const st = await resp.json();
    if (st.ended) return "The conference has ended.";
    if ((st.removed || []).includes(me.mtID)) return "The chair removed you from the conference.";
  } catch (e) { /* unreachable: rejoin */ }
  return "";
}

// ---- Tiles ----

function initials(name) {
  const w = (name || "?").trim().split(/\s+/);
  return ((w[0] || "?")[0] + (w.length > 1 ? w[w.length - 1][0] : "")).toUpperCase();
}

function addTile(key, label, stream, mirrored) {
  let tile = document.querySelector('.tile[data-key="' + key + '"]');
  if (!tile) {
    tile = document.createElement("div");
    tile.className = "tile";
    tile.dataset.key = key;
    const v = document.createElement("video");
    v.autoplay = true;
    v.playsInline = true;
    if (key === "me") v.muted = true;
    else v.volume = me.volume;
    if (key !== "me" && devices.speaker && v.setSinkId) v.setSinkId(devices.speaker).catch(() => {});
    if (mirrored) v.style.transform = "scaleX(-1)";
    const avatar = document.createElement("div");
    avatar.className = "avatar";
    avatar.append(document.createElement("b"), document.createElement("span"));
    const l = document.createElement("span");
    l.className = "label";
    const dot = document.createElement("i");
    dot.className = "dot";
    dot.dataset.level = "good";
    const name = document.createElement("span");
    name.className = "name";
    const hand = document.createElement("span");
    hand.className = "hand";
    hand.textContent = "✋";
    const meter = document.createElement("span");
    meter.className = "meter";
    meter.append(document.createElement("i"));
    l.append(dot, name, hand, meter);
    tile.append(v, avatar, l);
    $("tiles").append(tile);
  }
  tile.querySelector(".label .name").textContent = label;
  tile.dataset.name = label;
  tile.querySelector(".avatar b").textContent = initials(label);
  if (stream) tile.querySelector("video").srcObject = stream;
  return tile;
}

// showVideo switches a tile between its picture and the placeholder with
// the name: camera off, no camera, or a picture that stopped arriving.
function showVideo(tile, name, off, stalled) {
  tile.classList.toggle("video-off", !!off);
  tile.classList.toggle("stalled", !off && !!stalled);
  tile.querySelector(".avatar span").textContent = off ? name + " · camera off" : stalled ? name + " · video interrupted, reconnecting…" : name;
}

// fitTiles sizes the tiles, all 16:9, as large as the stage allows: a
// grid, or the large tile (speaker, screen) above a strip of the others.
function fitTiles() {
  const tiles = $("tiles");
  const W = tiles.clientWidth, H = tiles.clientHeight;
  if (!W || !H) return;
  const gap = 8;
  const best = (n, w, h) => {
    let bw = 0;
    for (let cols = 1; cols <= n; cols++) {
      const rows = Math.ceil(n / cols);
      bw = Math.max(bw, Math.min((w - (cols - 1) * gap) / cols, ((h - (rows - 1) * gap) / rows) * 16 / 9));
    }
    return Math.max(16, Math.floor(bw));
  };
  const shown = [...tiles.children].filter((t) => !t.classList.contains("offstage"));
  const large = shown.find((t) => t.classList.contains("large"));
  const others = shown.filter((t) => t !== large);
  const size = (t, w, margin) => { t.style.width = w + "px"; t.style.marginInline = margin ? margin + "px" : ""; };
  if (large && others.length) {
    const strip = Math.max(48, Math.floor(H * 0.24));
    const lw = best(1, W, H - strip - gap);
    size(large, lw, Math.floor((W - lw) / 2)); // alone on its row
    const ow = best(others.length, W, strip);
    for (const t of others) size(t, ow, 0);
  } else {
    const w = best(Math.max(1, shown.length), W, H);
    for (const t of shown) size(t, w, 0);
  }
}

// watch subscribes to one participant (or the dual stream) over WHEP,
// telling the SFU the size the tile shows so it picks a simulcast layer.
async function watch(key, query, label) {
  if (subs.has(key) || (refused.get(key) || 0) > Date.now() || me.rejoining) return;
  const entry = { pc: new RTCPeerConnection({ iceServers }), location: "", tile: null, closed: false, frames: 0, stall: 0 };
  subs.set(key, entry);
  entry.stream = new MediaStream();
  entry.tile = addTile(key, label, entry.stream, false);
  if (key === "dual") entry.tile.classList.add("screen");
  entry.pc.addTransceiver("audio", { direction: "recvonly" });
  entry.pc.addTransceiver("video", { direction: "recvonly" });
  entry.pc.ontrack = (e) => entry.stream.addTrack(e.track);
  const v = entry.tile.querySelector("video");
  const size = () => "&width=" + Math.round(v.clientWidth) + "&height=" + Math.round(v.clientHeight);
  try {
    const r = await negotiate(entry.pc, "/rtc/whep/" + encodeURIComponent(confID) + "?" + query +
      "&viewer=" + me.session + size());
    if (entry.closed) {
      fetch(r.location, { method: "DELETE", headers: auth() }).catch(() => {});
      return;
    }
    entry.location = r.location;
    entry.etag = r.etag;
    // A subscription the server ended or that cannot reconnect is
    // dropped; the next state subscribes again while its source is there.
    heal(entry, () => { unwatch(key, true); refused.set(key, Date.now() + 1000); });
    entry.resize = new ResizeObserver(() => {
      if (!entry.location || entry.closed) return;
      fetch(entry.location + "/layer", {
        method: "POST", headers: auth({ "Content-Type": "application/json" }),
        body: JSON.stringify({ width: Math.round(v.clientWidth), height: Math.round(v.clientHeight) }),
      }).catch(() => {});
    });
    entry.resize.observe(v);
  } catch (e) {
    // Not retried at once: a 404 (the source or the page's own session is
    // gone) waits for the next state or the rejoin.
    unwatch(key, true);
    refused.set(key, Date.now() + (e.status === 404 ? 3000 : 1000));
  }
}

// unwatch ends a subscription; keep leaves its tile in place, marked
// interrupted, for the subscription that replaces it (the tile goes when
// its participant leaves the state).
function unwatch(key, keep) {
  const entry = subs.get(key);
  if (!entry) return;
  subs.delete(key);
  entry.closed = true;
  entry.pc.close();
  if (entry.resize) entry.resize.disconnect();
  if (entry.location) fetch(entry.location, { method: "DELETE", headers: auth() }).catch(() => {});
  if (!entry.tile) return;
  if (keep) showVideo(entry.tile, entry.tile.dataset.name, entry.tile.classList.contains("video-off"), true);
  else entry.tile.remove();
}

// ---- The room ----

const mine = () => state.participants.find((p) => p.mt_id === me.mtID);
const nameOf = (p) => p.name || "#" + p.mt_id;

function render() {
  // The list first: a failure in the tiles must not hide who is here.
  renderList();
  try { renderTiles(); } catch (e) { console.error("tiles", e); }
  const m = mine();
  if (m && !m.muted) me.selfMuted = false;
  const chairMuted = m && m.muted && !me.selfMuted;
  if (!me.rejoining) status("room-status", chairMuted ? "The chair muted you." : (m && m.silenced ? "The chair silenced you." : ""));
  // The microphone follows the mute the conference sees: the page's own,
  // or the chair's (the track stops sending too).
  if (m && me.stream) {
    for (const t of me.stream.getAudioTracks()) t.enabled = !m.muted;
    $("mute").textContent = m.muted ? "Unmute" : "Mute";
    $("mute").classList.toggle("off", !!m.muted);
    $("mute").setAttribute("aria-pressed", String(!!m.muted));
  }
  // The loudspeaker volume the chair set (0..35): the terminal's
  // default 15 and above play at full volume, below it proportionally.
  me.volume = m && m.volume != null ? Math.min(1, Math.max(0, m.volume / 15)) : 1;
  for (const v of document.querySelectorAll('.tile:not([data-key="me"]) video')) v.volume = me.volume;
  if (m) {
    me.hand = !!m.hand;
    $("hand").textContent = m.hand ? "Lower hand" : "Raise hand";
    $("hand").classList.toggle("on", !!m.hand);
    $("hand").setAttribute("aria-pressed", String(!!m.hand));
  }
  // The chair moved the dual stream elsewhere, or cancelled it: the
  // server ended this page's share.
  if (me.screen && Date.now() - me.screen.started > 3000 && state.dual !== me.mtID) stopShare();
  renderChair();
  renderChat();
  fitTiles();
}

function renderList() {
  const speaker = state.speaker || "";
  const ul = $("participants");
  ul.replaceChildren();
  $("count").textContent = "(" + state.participants.length + ")";
  for (const p of state.participants) {
    if (p.kind === "whep") continue; // a viewer, not a participant
    const li = document.createElement("li");
    li.dataset.mt = p.mt_id;
    if (p.muted) li.classList.add("muted");
    if (p.mt_id === speaker) li.classList.add("speaker");
    if (p.mt_id === state.active && p.audio) li.classList.add("active");
    if (p.hand) li.classList.add("hand");
    const flags = [];
    if (p.mt_id === me.mtID) flags.push("you");
    if (p.mt_id === state.chairman) flags.push("chairman");
    if (p.mt_id === speaker) flags.push("speaker");
    if (p.hand) flags.push("✋ hand raised");
    if (p.muted) flags.push("muted");
    if (p.video_off) flags.push("camera off");
    if (p.silenced) flags.push("silenced");
    if (p.screen) flags.push("sharing");
    const n = document.createElement("span");
    n.className = "name";
    n.textContent = nameOf(p);
    const f = document.createElement("span");
    f.className = "flags";
    f.textContent = flags.join(", ");
    li.append(n, f);
    if (chair.on && p.mt_id !== me.mtID) li.append(chairButtons(p));
    ul.append(li);
  }
}

function renderTiles() {
  const byID = new Map(state.participants.map((p) => [p.mt_id, p]));
  // Subscriptions: every other publishing participant, and the dual stream.
  for (const p of state.participants) {
    if (p.mt_id === me.mtID || !(p.audio || p.video)) continue;
    watch("mt:" + p.mt_id, "mt_id=" + encodeURIComponent(p.mt_id), nameOf(p));
    const t = document.querySelector('.tile[data-key="mt:' + p.mt_id + '"]');
    if (!t) continue;
    t.querySelector(".label .name").textContent = nameOf(p) + (p.muted ? " (muted)" : "");
    t.classList.toggle("hand-up", !!p.hand);
    const e = subs.get("mt:" + p.mt_id);
    showVideo(t, nameOf(p), p.video_off || !p.video, e && e.stall >= 2);
  }
  for (const key of [...subs.keys()]) {
    if (key.startsWith("mt:") && !byID.get(key.slice(3))) unwatch(key);
  }
  for (const t of document.querySelectorAll('.tile[data-key^="mt:"]')) {
    const p = byID.get(t.dataset.key.slice(3));
    if (!p || !(p.audio || p.video)) { unwatch(t.dataset.key); t.remove(); }
  }
  const m = mine();
  const own = document.querySelector('.tile[data-key="me"]');
  if (own) {
    own.classList.toggle("hand-up", !!(m && m.hand));
    showVideo(own, me.name || "You", me.camOff || !me.stream || !me.stream.getVideoTracks().length, false);
  }
  const dual = byID.get(state.dual);
  if (dual && dual.screen && state.dual !== me.mtID) watch("dual", "dual=1", nameOf(dual) + " (screen)");
  else {
    unwatch("dual");
    const kept = document.querySelector('.tile[data-key="dual"]');
    if (kept) kept.remove();
  }

  // Layout: the composition's panes in order (a grid of as many panes,
  // the others off stage, their sound still playing), else the speaker
  // (or the screen share) large over the others.
  const tiles = $("tiles");
  const speaker = state.speaker || "";
  const tileOf = (id) => document.querySelector('.tile[data-key="mt:' + id + '"]') ||
    (id && id === me.mtID ? document.querySelector('.tile[data-key="me"]') : null);
  for (const p of tiles.querySelectorAll(".tile.placeholder")) p.remove();
  for (const tile of tiles.children) {
    tile.classList.remove("large", "offstage");
    delete tile.dataset.pane;
  }
  const panes = state.panes || [];
  if (panes.length) {
    tiles.className = "layout-panes";
    for (const tile of tiles.children) if (tile.dataset.key !== "dual") tile.classList.add("offstage");
    const order = panes.map((id, i) => {
      let t = id ? tileOf(id) : null;
      if (!t) {
        t = document.createElement("div");
        t.className = "tile placeholder";
        t.textContent = id ? "#" + id : "";
      }
      t.classList.remove("offstage");
      t.dataset.pane = String(i);
      return t;
    });
    for (const t of order.reverse()) tiles.prepend(t);
    const dualTile = document.querySelector('.tile[data-key="dual"]');
    if (dualTile) { dualTile.classList.add("large"); tiles.prepend(dualTile); }
    return;
  }
  tiles.className = speaker || state.dual ? "layout-speaker" : "layout-grid";
  const large = document.querySelector('.tile[data-key="dual"]') || (speaker ? tileOf(speaker) : null);
  if (large) { large.classList.add("large"); tiles.prepend(large); }
}

// renderChat adds the chat lines not shown yet; a reaction floats up for
// a few seconds (the ones sent before this page joined are not replayed).
function renderChat() {
  const ol = $("chat");
  for (const m of state.messages || []) {
    const id = m.seq + "@" + m.at; // a restarted server counts again
    if (ol.querySelector('li[data-id="' + id + '"]')) continue;
    if (m.reaction) {
      if (m.at >= me.joinedAt - 2000) {
        const s = document.createElement("span");
        s.textContent = m.reaction + " " + m.name;
        $("floating").append(s);
        s.addEventListener("animationend", () => s.remove());
      }
    }
    const li = document.createElement("li");
    li.dataset.id = id;
    const who = document.createElement("b");
    who.textContent = (m.name || "#" + m.mt_id) + ": ";
    li.append(who, m.reaction ? m.reaction : m.text);
    if (m.reaction) li.className = "reaction";
    ol.append(li);
    ol.scrollTop = ol.scrollHeight;
  }
}

// leaveReason tells why the page's participant is no longer in the room:
// null while it is (or while the page joins again).
function leaveReason() {
  if (state.ended) return "The conference has ended.";
  if (!me.mtID || me.rejoining || state.participants.some((p) => p.mt_id === me.mtID)) return null;
  if ((state.removed || []).includes(me.mtID)) return "The chair removed you from the conference.";
  return "lost";
}

// poll follows the room (long poll). A 404 is a conference that ended, a
// 401 a link that no longer admits; anything else is retried.
async function poll() {
  if (me.polling) return;
  me.polling = true;
  let pause = 500;
  while (!me.left) {
    me.pollAbort = new AbortController();
    try {
      const resp = await fetch("/rtc/state/" + encodeURIComponent(confID) + "?since=" + state.version +
        "&session=" + me.session, { headers: auth(), signal: me.pollAbort.signal });
      if (resp.status === 404) { leave("The conference has ended."); break; }
      if (resp.status === 401) { leave("This link no longer admits you to the conference."); break; }
      if (resp.status !== 200) throw new Error(String(resp.status));
      const next = await resp.json();
      if (me.rejoining) { await me.rejoining; continue; }
      state = next;
      pause = 500;
      const why = leaveReason();
      if (why === "lost") { rejoin("the server no longer lists this page"); continue; }
      if (why) { leave(why); break; }
      render();
    } catch (e) {
      if (me.left) break;
      if (e.name === "AbortError") continue;
      quality("lost", "Reconnecting…");
      await sleep(pause);
      pause = Math.min(pause * 2, 5000);
    }
  }
  me.polling = false;
}

// ---- Levels, speaking and connection quality (every 250 ms) ----

function quality(level, text) {
  const q = $("quality");
  q.dataset.level = level;
  q.textContent = text;
}

function meterTo(tile, level) {
  const i = tile && tile.querySelector(".meter i");
  if (!i) return;
  i.style.width = Math.round(Math.min(1, level) * 100) + "%";
  tile.classList.toggle("speaking", level > 0.08);
}

let ticks = 0, ticking = false;
function tick() {
  if (me.left || ticking) return;
  ticking = true;
  measure().finally(() => { ticking = false; });
}

async function measure() {
  const lvl = localLevel();
  if (!$("lobby").hidden) $("mic-meter").value = lvl;
  const m = mine();
  meterTo(document.querySelector('.tile[data-key="me"]'), m && m.muted ? 0 : lvl);
  if (++ticks % 4 !== 0 || $("room").hidden) return; // the rest once a second
  for (const [key, e] of subs) {
    if (!e.location) continue;
    let st;
    try { st = await e.pc.getStats(); } catch (err) { continue; }
    let level = 0, frames = e.frames, lost = 0, got = 0, jitter = 0;
    st.forEach((r) => {
      if (r.type !== "inbound-rtp") return;
      if (r.kind === "audio") { level = r.audioLevel || 0; jitter = r.jitter || 0; }
      if (r.kind === "video") frames = r.framesDecoded || 0;
      lost += r.packetsLost || 0;
      got += r.packetsReceived || 0;
    });
    meterTo(e.tile, level * 3);
    // A picture that stops while its source should send: the tile says
    // so until frames arrive again.
    e.stall = frames > e.frames ? 0 : e.stall + 1;
    e.frames = frames;
    const dLost = lost - (e.lost || 0), dGot = got - (e.got || 0);
    e.lost = lost;
    e.got = got;
    const loss = dLost + dGot > 0 ? dLost / (dLost + dGot) : 0;
    e.tile.querySelector(".dot").dataset.level = loss > 0.1 || jitter > 0.1 ? "poor" : loss > 0.02 || jitter > 0.03 ? "fair" : "good";
    if (key.startsWith("mt:")) {
      const p = state.participants.find((x) => "mt:" + x.mt_id === key);
      if (p) showVideo(e.tile, nameOf(p), p.video_off || !p.video, e.stall >= 2);
    }
  }
  if (me.pub && !me.rejoining) await ownQuality();
}

// ownQuality rates the page's own connection from its publication's
// statistics: round trip and the loss the server reports (RTCP).
async function ownQuality() {
  const pc = me.pub.pc;
  if (pc.iceConnectionState === "disconnected" || pc.iceConnectionState === "failed") {
    quality("lost", "Reconnecting…");
    return;
  }
  let rtt = 0, loss = 0;
  try {
    (await pc.getStats()).forEach((r) => {
      if (r.type === "candidate-pair" && r.nominated && r.currentRoundTripTime) rtt = r.currentRoundTripTime;
      if (r.type === "remote-inbound-rtp" && r.fractionLost) loss = Math.max(loss, r.fractionLost);
    });
  } catch (e) { return; }
  if (loss > 0.1 || rtt > 0.5) quality("poor", "Connection: poor");
  else if (loss > 0.03 || rtt > 0.2) quality("fair", "Connection: fair");
  else quality("good", "Connection: good");
}

// ---- The page's own controls ----

// post sends a JSON body to one of the publication's session resources.
async function post(path, body) {
  const resp = await fetch(me.pub.location + path, {
    method: "POST", headers: auth({ "Content-Type": "application/json" }), body: JSON.stringify(body),
  });
  if (resp.status !== 204) throw new Error((await resp.text()).trim() || String(resp.status));
}

// selfControl asks the server for the page's own mute or camera state
// (POST {session}/mute): the mute is the terminal's mute in vc, seen by the
// conference and every page; the chair's mute cannot be lifted here (403).
const selfControl = (body) => post("/mute", body);

async function toggleMute() {
  if (!me.stream || !me.pub) return;
  const m = mine();
  const mute = !(m && m.muted);
  try {
    if (mute) me.selfMuted = true;
    for (const t of me.stream.getAudioTracks()) t.enabled = !mute;
    await selfControl({ audio: mute });
  } catch (e) {
    if (mute) me.selfMuted = false;
    status("room-status", "Cannot unmute: " + e.message + ".");
  }
}

async function toggleCamera() {
  if (!me.stream || !me.pub) return;
  me.camOff = !me.camOff;
  for (const t of me.stream.getVideoTracks()) t.enabled = !me.camOff; // black frames
  $("camera").textContent = me.camOff ? "Start camera" : "Stop camera";
  $("camera").classList.toggle("off", me.camOff);
  $("camera").setAttribute("aria-pressed", String(me.camOff));
  renderTiles();
  try { await selfControl({ video: me.camOff }); } catch (e) { status("room-status", "Camera: " + e.message); }
}

async function toggleHand() {
  if (!me.pub) return;
  try { await post("/hand", { raised: !me.hand }); } catch (e) { status("room-status", "Hand: " + e.message); }
}

async function sendChat(ev) {
  ev.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text || !me.pub) return;
  try {
    await post("/chat", { text });
    $("chat-text").value = "";
  } catch (e) { status("room-status", "Chat: " + e.message); }
}

async function react(emoji) {
  $("reactions").hidden = true;
  $("react").setAttribute("aria-expanded", "false");
  if (!me.pub) return;
  try { await post("/chat", { reaction: emoji }); } catch (e) { status("room-status", "Reaction: " + e.message); }
}

// The chairman's controls (docs/join-page.md): offered when
// this page's participant is the conference's chairman and the page runs
// with a login (no token in the link). They call the public API as the
// console does: an account_token of the node (POST /console/token) and
// the login cookie. A chairman who joined with a token alone is told to
// log in: a media token opens the media, not the API.
const chair = { on: false, token: "", busy: false };

async function chairCall(method, path, body) {
  if (!chair.token) {
    const r = await fetch("/console/token", { method: "POST", credentials: "same-origin" });
    const reply = await r.json();
    if (reply.success !== 1) throw new Error(reply.description || "no token");
    chair.token = reply.account_token;
  }
  const form = new URLSearchParams({ account_token: chair.token });
  if (body) form.set("params", JSON.stringify(body));
  const url = "/api/v1/vc/confs/" + encodeURIComponent(confID) + path;
  const resp = await fetch(method === "GET" ? url + "?" + form : url, { method, credentials: "same-origin", body: method === "GET" ? undefined : form });
  const reply = await resp.json();
  if (reply.success !== 1) throw new Error(reply.description || "error " + reply.error_code);
  return reply;
}

function chairAct(what, method, path, body) {
  chairCall(method, path, body).then(() => status("chair-status", what), (e) => status("chair-status", e.message));
}

function chairButtons(p) {
  const box = document.createElement("span");
  box.className = "chair-buttons";
  const b = (text, action, f) => {
    const x = document.createElement("button");
    x.type = "button";
    x.textContent = text;
    x.dataset.action = action;
    x.addEventListener("click", f);
    box.append(x);
  };
  const id = encodeURIComponent(p.mt_id);
  b(p.muted ? "Unmute" : "Mute", "mute", () => chairAct(nameOf(p) + (p.muted ? " unmuted." : " muted."), "PUT", "/mts/" + id + "/mute", { value: p.muted ? 0 : 1 }));
  b(state.speaker === p.mt_id ? "Cancel speaker" : "Speaker", "speaker", () => chairAct("Speaker changed.", "PUT", "/speaker", { mt_id: state.speaker === p.mt_id ? "" : p.mt_id }));
  b("Hang up", "hangup", () => chairAct(nameOf(p) + " hung up.", "DELETE", "/online_mts", { mts: [{ mt_id: p.mt_id }] }));
  return box;
}

function renderChair() {
  const isChair = !!me.mtID && state.chairman === me.mtID;
  const was = chair.on;
  chair.on = isChair && !token;
  $("chair").hidden = !isChair;
  $("chair-actions").hidden = !chair.on;
  status("chair-note", isChair && token ? "You are the chairman. Log in to Confer and open this conference's link without a token to control it." : "");
  if (was !== chair.on) renderList();
}

async function share() {
  if (me.screen) { stopShare(); return; }
  let stream;
  try {
    stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
  } catch (e) {
    status("room-status", "Screen share cancelled (" + e.name + ").");
    return;
  }
  const pc = new RTCPeerConnection({ iceServers });
  try {
    for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: "sendonly", streams: [stream] });
    const r = await negotiate(pc, "/rtc/whip/" + encodeURIComponent(confID) + "?dual=1&viewer=" + me.session);
    me.screen = { pc, location: r.location, stream, started: Date.now() };
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") stopShare();
    });
    stream.getVideoTracks()[0].addEventListener("ended", stopShare);
    $("share").textContent = "Stop sharing";
  } catch (e) {
    pc.close();
    stream.getTracks().forEach((t) => t.stop());
    // The server says why (403: vc's dual_mode lets only the speaker, or
    // the chairman, share).
    const why = e.message.replace(/^screen share refused: /, "");
    status("room-status", "You cannot share your screen: " + why + ".");
  }
}

function stopShare() {
  if (!me.screen) return;
  me.screen.pc.close();
  me.screen.stream.getTracks().forEach((t) => t.stop());
  fetch(me.screen.location, { method: "DELETE", headers: auth() }).catch(() => {});
  me.screen = null;
  $("share").textContent = "Share screen";
}

// leave ends everything: the sessions, the polling, the camera and the
// microphone (their tracks stopped, so the camera light goes off).
function leave(why) {
  if (me.left) return;
  me.left = true;
  if (me.pollAbort) me.pollAbort.abort();
  clearInterval(me.timer);
  stopShare();
  for (const key of [...subs.keys()]) unwatch(key);
  if (me.pub) {
    me.pub.closed = true;
    me.pub.pc.close();
    fetch(me.pub.location, { method: "DELETE", headers: auth(), keepalive: true }).catch(() => {});
  }
  if (me.stream) me.stream.getTracks().forEach((t) => t.stop());
  $("preview").srcObject = null;
  for (const v of document.querySelectorAll("video")) v.srcObject = null;
  if (me.audio) me.audio.ctx.close().catch(() => {});
  $("lobby").hidden = true;
  $("room").hidden = true;
  $("left").hidden = false;
  document.querySelector("main").classList.remove("in-room");
  if (typeof why === "string") $("left-title").textContent = why;
}

function toggle(button, box) {
  const open = box.hidden;
  box.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
}

// For tests and the console: the publication's ICE session and a restart,
// and what the page holds.
window.confer = {
  etag: () => me.pub && me.pub.etag,
  restartIce: () => restartIce(me.pub),
  session: () => me.session,
  mtID: () => me.mtID,
  rejoins: () => me.rejoins,
  polling: () => me.polling,
  subscription: (key) => { const e = subs.get(key); return e && e.location ? e.location.split("/").pop() : ""; },
  sender: (kind) => { const s = me.pub && me.pub.pc.getSenders().find((x) => x.track && x.track.kind === kind); return s ? s.track : null; },
  liveTracks: () => (me.stream ? me.stream.getTracks().filter((t) => t.readyState === "live").length : 0),
  // The publication's send estimate (bit/s) and the smallest of the largest
  // pictures each subscription receives (the load test, issue 35).
  media: async () => {
    let send = 0, width = 0, height = 0, first = true;
    if (me.pub) {
      for (const r of (await me.pub.pc.getStats()).values()) {
        if (r.type === "candidate-pair" && r.nominated && r.availableOutgoingBitrate) send = r.availableOutgoingBitrate;
      }
    }
    for (const e of subs.values()) {
      let w = 0, h = 0;
      for (const r of (await e.pc.getStats()).values()) {
        if (r.type === "inbound-rtp" && r.kind === "video" && (r.frameWidth || 0) * (r.frameHeight || 0) > w * h) { w = r.frameWidth; h = r.frameHeight; }
      }
      if (first || w * h < width * height) { width = w; height = h; first = false; }
    }
    return { send, width, height };
  },
};

function setTitle(conference) {
  if (!conference) return;
  document.title = conference + " · Confer";
  $("lobby-title").textContent = "Join " + conference;
  $("room-title").textContent = conference;
}

async function init() {
  $("join-form").addEventListener("submit", join);
  $("mute").addEventListener("click", toggleMute);
  $("camera").addEventListener("click", toggleCamera);
  $("hand").addEventListener("click", toggleHand);
  $("chat-form").addEventListener("submit", sendChat);
  $("react").addEventListener("click", () => toggle($("react"), $("reactions")));
  for (const e of ["👍", "👏", "😂", "🎉", "❤️", "😮"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = e;
    b.dataset.reaction = e;
    b.setAttribute("aria-label", "React " + e);
    b.addEventListener("click", () => react(e));
    $("reactions").append(b);
  }
  $("settings").addEventListener("click", () => toggle($("settings"), $("device-slot")));
  $("camera-select").addEventListener("change", () => switchDevice("video"));
  $("mic-select").addEventListener("change", () => switchDevice("audio"));
  $("speaker-select").addEventListener("change", switchSpeaker);
  $("mute-all").addEventListener("click", () => chairAct("Everyone muted.", "PUT", "/mute", { value: 1 }));
  $("unmute-all").addEventListener("click", () => chairAct("Everyone unmuted.", "PUT", "/mute", { value: 0 }));
  $("share").addEventListener("click", share);
  $("leave").addEventListener("click", () => leave());
  window.addEventListener("pagehide", () => leave());
  if (navigator.mediaDevices) navigator.mediaDevices.addEventListener("devicechange", listDevices);
  try {
    const resp = await fetch("/rtc/state/" + encodeURIComponent(confID), { headers: auth() });
    const text = resp.status === 200 ? "" : (await resp.clone().text()).trim();
    if (resp.status === 200) {
      const st = await resp.json();
      iceServers = st.ice_servers || [];
      setTitle(st.conference);
      if (st.name && !$("name").value) $("name").value = st.name; // the token's (or the login's) name
    } else if (resp.status === 401 && text.includes("password")) {
      $("password-row").hidden = false;
      status("lobby-status", "This conference has a password.");
    } else if (resp.status === 401) {
      status("lobby-status", "This link has no valid token and you are not logged in.");
    } else if (resp.status === 404) {
      status("lobby-status", "This conference is not running (it has ended, or has not started).");
    } else status("lobby-status", "Cannot join: " + text);
  } catch (e) { /* offline: the join reports it */ }
  $("join-form").dataset.ready = "1"; // the name is prefilled (tests wait for it)
  previewed = preview();
}

init();
