// Confer join page: publish the camera and microphone over WHIP, watch each
// other participant over WHEP, follow the room through the long-polled
// state endpoint (docs/media.md, "The join page").
"use strict";

const confID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);

const me = { stream: null, pub: null, screen: null, session: "", mtID: "", left: false, selfMuted: false, camOff: false };
const subs = new Map(); // key ("mt:N" or "dual") -> {pc, location, tile}
let state = { version: -1, participants: [] };
let iceServers = [];
let password = "";

// auth: the link's token, else the logged-in user's cookie (sent by fetch
// on its own); the conference password once asked for.
function auth(extra) {
  const h = Object.assign({}, extra || {});
  if (token) h.Authorization = "Bearer " + token;
  if (password) h["X-Confer-Password"] = password;
  return h;
}

function status(id, text) { $(id).textContent = text || ""; }

async function preview() {
  try {
    me.stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 1280, height: 720 } });
    $("preview").srcObject = me.stream;
  } catch (e) {
    status("lobby-status", "No camera or microphone: joining to watch only (" + e.name + ").");
  }
}

function waitGathering(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, 2000); // send what was gathered; the SFU has host candidates
  });
}

// negotiate posts the offer of pc to url (WHIP or WHEP, RFC 9725 4.2).
async function negotiate(pc, url) {
  await pc.setLocalDescription(await pc.createOffer());
  await waitGathering(pc);
  const resp = await fetch(url, {
    method: "POST", headers: auth({ "Content-Type": "application/sdp" }), body: pc.localDescription.sdp,
  });
  const body = await resp.text();
  if (resp.status !== 201) throw new Error(resp.status + " " + body.trim());
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
  if (resp.status !== 200) throw new Error("ICE restart refused: " + resp.status);
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

// keepConnected restarts ICE when a connection drops (a network change,
// a NAT rebinding), before the server gives the session up
// (DisconnectedTimeout + FailedTimeout, 8 s by default); at most one
// restart every 3 s.
function keepConnected(entry, lost) {
  let last = 0;
  entry.pc.addEventListener("iceconnectionstatechange", async () => {
    const st = entry.pc.iceConnectionState;
    if ((st !== "disconnected" && st !== "failed") || me.left || !entry.location || Date.now() - last < 3000) return;
    last = Date.now();
    try {
      await restartIce(entry);
    } catch (e) {
      if (entry.pc.iceConnectionState === "failed") lost(e);
    }
  });
}
// For tests and the console: the publication's ICE session and a restart.
window.confer = { etag: () => me.pub && me.pub.etag, restartIce: () => restartIce(me.pub) };

let previewed = Promise.resolve();

async function join(ev) {
  ev.preventDefault();
  $("join").disabled = true;
  await previewed; // camera and microphone asked for before publishing
  password = $("password").value;
  const name = $("name").value.trim();
  const q = "?kind=browser&name=" + encodeURIComponent(name);
  try {
    const pc = new RTCPeerConnection({ iceServers });
    let path;
    if (me.stream) {
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
    const r = await negotiate(pc, path + encodeURIComponent(confID) + q);
    me.pub = { pc, location: r.location, etag: r.etag };
    me.session = r.location.split("/").pop();
    me.mtID = r.mtID;
    keepConnected(me.pub, () => { if (!me.left) status("room-status", "Connection lost."); });
    $("mute").disabled = $("camera").disabled = $("share").disabled = !me.stream;
    $("lobby").hidden = true;
    $("room").hidden = false;
    addTile("me", "You", me.stream, true);
    poll();
  } catch (e) {
    if (e.message.includes("password")) $("password-row").hidden = false;
    status("lobby-status", "Could not join: " + e.message);
    $("join").disabled = false;
  }
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
    if (mirrored) v.style.transform = "scaleX(-1)";
    const l = document.createElement("span");
    l.className = "label";
    tile.append(v, l);
    $("tiles").append(tile);
  }
  tile.querySelector(".label").textContent = label;
  if (stream) tile.querySelector("video").srcObject = stream;
  return tile;
}

// watch subscribes to one participant (or the dual stream) over WHEP,
// telling the SFU the size the tile shows so it picks a simulcast layer.
async function watch(key, query, label) {
  if (subs.has(key)) return;
  const entry = { pc: new RTCPeerConnection({ iceServers }), location: "", tile: null };
  subs.set(key, entry);
  const stream = new MediaStream();
  entry.tile = addTile(key, label, stream, false);
  if (key === "dual") entry.tile.classList.add("screen");
  entry.pc.addTransceiver("audio", { direction: "recvonly" });
  entry.pc.addTransceiver("video", { direction: "recvonly" });
  entry.pc.ontrack = (e) => stream.addTrack(e.track);
  const v = entry.tile.querySelector("video");
  const size = () => "&width=" + Math.round(v.clientWidth) + "&height=" + Math.round(v.clientHeight);
  try {
    const r = await negotiate(entry.pc, "/rtc/whep/" + encodeURIComponent(confID) + "?" + query +
      "&viewer=" + me.session + size());
    entry.location = r.location;
    entry.etag = r.etag;
    keepConnected(entry, () => unwatch(key));
    new ResizeObserver(() => {
      if (!entry.location) return;
      fetch(entry.location + "/layer", {
        method: "POST", headers: auth({ "Content-Type": "application/json" }),
        body: JSON.stringify({ width: Math.round(v.clientWidth), height: Math.round(v.clientHeight) }),
      }).catch(() => {});
    }).observe(v);
  } catch (e) {
    unwatch(key);
  }
}

function unwatch(key) {
  const entry = subs.get(key);
  if (!entry) return;
  subs.delete(key);
  entry.pc.close();
  if (entry.location) fetch(entry.location, { method: "DELETE", headers: auth() }).catch(() => {});
  if (entry.tile) entry.tile.remove();
}

function render() {
  // The list first: a failure in the tiles must not hide who is here.
  renderList();
  try { renderTiles(); } catch (e) { console.error("tiles", e); }
  const mine = state.participants.find((p) => p.mt_id === me.mtID);
  if (mine && !mine.muted) me.selfMuted = false;
  const chairMuted = mine && mine.muted && !me.selfMuted;
  status("room-status", chairMuted ? "The chair muted you." : (mine && mine.silenced ? "The chair silenced you." : ""));
  // The microphone follows the mute the conference sees: the page's own,
  // or the chair's (the track stops sending too).
  if (mine && me.stream) {
    for (const t of me.stream.getAudioTracks()) t.enabled = !mine.muted;
    $("mute").textContent = mine.muted ? "Unmute" : "Mute";
    $("mute").classList.toggle("off", !!mine.muted);
    $("mute").setAttribute("aria-pressed", String(!!mine.muted));
  }
  // The chair moved the dual stream elsewhere, or cancelled it: the
  // server ended this page's share.
  if (me.screen && Date.now() - me.screen.started > 3000 && state.dual !== me.mtID) stopShare();
  renderChair();
}

function renderList() {
  const speaker = state.speaker || "";

  const ul = $("participants");
  ul.replaceChildren();
  for (const p of state.participants) {
    const li = document.createElement("li");
    li.dataset.mt = p.mt_id;
    if (p.muted) li.classList.add("muted");
    if (p.mt_id === speaker) li.classList.add("speaker");
    const flags = [];
    if (p.mt_id === me.mtID) flags.push("you");
    if (p.mt_id === speaker) flags.push("speaker");
    if (p.muted) flags.push("muted");
    if (p.video_off) flags.push("camera off");
    if (p.silenced) flags.push("silenced");
    if (p.screen) flags.push("sharing");
    const n = document.createElement("span");
    n.className = "name";
    n.textContent = p.name || "#" + p.mt_id;
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
    watch("mt:" + p.mt_id, "mt_id=" + encodeURIComponent(p.mt_id), p.name || "#" + p.mt_id);
    const t = document.querySelector('.tile[data-key="mt:' + p.mt_id + '"] .label');
    if (t) t.textContent = (p.name || "#" + p.mt_id) + (p.muted ? " (muted)" : "");
  }
  for (const key of [...subs.keys()]) {
    if (key.startsWith("mt:") && !byID.get(key.slice(3))) unwatch(key);
  }
  const dual = byID.get(state.dual);
  if (dual && dual.screen && state.dual !== me.mtID) watch("dual", "dual=1", (dual.name || "#" + dual.mt_id) + " (screen)");
  else unwatch("dual");

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
    tiles.style.gridTemplateColumns = "repeat(" + Math.ceil(Math.sqrt(panes.length)) + ", 1fr)";
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
    const dual = document.querySelector('.tile[data-key="dual"]');
    if (dual) { dual.classList.add("large"); tiles.prepend(dual); }
    return;
  }
  tiles.style.gridTemplateColumns = "";
  tiles.className = speaker || state.dual ? "layout-speaker" : "layout-grid";
  const large = document.querySelector('.tile[data-key="dual"]') || (speaker ? tileOf(speaker) : null);
  if (large) { large.classList.add("large"); tiles.prepend(large); }
}

async function poll() {
  while (!me.left) {
    try {
      const resp = await fetch("/rtc/state/" + encodeURIComponent(confID) + "?since=" + state.version +
        "&session=" + me.session, { headers: auth() });
      if (resp.status !== 200) throw new Error(String(resp.status));
      state = await resp.json();
      if (state.ended || (me.mtID && !state.participants.some((p) => p.mt_id === me.mtID))) {
        leave("The conference ended or you were disconnected.");
        return;
      }
      render();
    } catch (e) {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

// selfControl asks the server for the page's own mute or camera state
// (POST {session}/mute): the mute is the terminal's mute in vc, seen by the
// conference and every page; the chair's mute cannot be lifted here (403).
async function selfControl(body) {
  const resp = await fetch(me.pub.location + "/mute", {
    method: "POST", headers: auth({ "Content-Type": "application/json" }), body: JSON.stringify(body),
  });
  if (resp.status !== 204) throw new Error((await resp.text()).trim() || String(resp.status));
}

async function toggleMute() {
  if (!me.stream || !me.pub) return;
  const mine = state.participants.find((p) => p.mt_id === me.mtID);
  const mute = !(mine && mine.muted);
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
  try { await selfControl({ video: me.camOff }); } catch (e) { status("room-status", "Camera: " + e.message); }
}

// The chairman's controls (docs/media.md "The join page"): offered when
// this page's participant is the conference's chairman and the page runs
// with a login (no token in the link). They call the public API as the
// console does: an account_token of the node (POST /console/token) and
// the login cookie. A chairman who joined with a token alone is told to
// log in: a media token opens the media, not the API.
const chair = { on: false, token: "", busy: false };

async function chairCall(method, path, params) {
  if (!chair.token) {
    const r = await fetch("/console/token", { method: "POST", credentials: "same-origin" });
    const body = await r.json();
    if (body.success !== 1) throw new Error(body.description || "no token");
    chair.token = body.account_token;
  }
  const form = new URLSearchParams({ account_token: chair.token });
  if (params) form.set("params", JSON.stringify(params));
  const url = "/api/v1/vc/confs/" + encodeURIComponent(confID) + path;
  const resp = await fetch(method === "GET" ? url + "?" + form : url, { method, credentials: "same-origin", body: method === "GET" ? undefined : form });
  const body = await resp.json();
  if (body.success !== 1) throw new Error(body.description || "error " + body.error_code);
  return body;
}

function chairAct(what, method, path, params) {
  chairCall(method, path, params).then(() => status("chair-status", what), (e) => status("chair-status", e.message));
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
  b(p.muted ? "Unmute" : "Mute", "mute", () => chairAct((p.name || p.mt_id) + (p.muted ? " unmuted." : " muted."), "PUT", "/mts/" + id + "/mute", { value: p.muted ? 0 : 1 }));
  b(state.speaker === p.mt_id ? "Cancel speaker" : "Speaker", "speaker", () => chairAct("Speaker changed.", "PUT", "/speaker", { mt_id: state.speaker === p.mt_id ? "" : p.mt_id }));
  b("Hang up", "hangup", () => chairAct((p.name || p.mt_id) + " hung up.", "DELETE", "/online_mts", { mts: [{ mt_id: p.mt_id }] }));
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
  try {
    const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const pc = new RTCPeerConnection({ iceServers });
    for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: "sendonly", streams: [stream] });
    const r = await negotiate(pc, "/rtc/whip/" + encodeURIComponent(confID) + "?dual=1&viewer=" + me.session);
    me.screen = { pc, location: r.location, stream, started: Date.now() };
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") stopShare();
    });
    stream.getVideoTracks()[0].addEventListener("ended", stopShare);
    $("share").textContent = "Stop sharing";
  } catch (e) {
    status("room-status", "Screen share refused: " + e.message);
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

function leave(why) {
  if (me.left) return;
  me.left = true;
  stopShare();
  for (const key of [...subs.keys()]) unwatch(key);
  if (me.pub) {
    me.pub.pc.close();
    fetch(me.pub.location, { method: "DELETE", headers: auth(), keepalive: true }).catch(() => {});
  }
  if (me.stream) me.stream.getTracks().forEach((t) => t.stop());
  $("room").hidden = true;
  $("left").hidden = false;
  if (typeof why === "string") $("left-title").textContent = why;
}

async function init() {
  $("join-form").addEventListener("submit", join);
  $("mute").addEventListener("click", toggleMute);
  $("camera").addEventListener("click", toggleCamera);
  $("mute-all").addEventListener("click", () => chairAct("Everyone muted.", "PUT", "/mute", { value: 1 }));
  $("unmute-all").addEventListener("click", () => chairAct("Everyone unmuted.", "PUT", "/mute", { value: 0 }));
  $("share").addEventListener("click", share);
  $("leave").addEventListener("click", () => leave());
  window.addEventListener("pagehide", () => leave());
  try {
    const resp = await fetch("/rtc/state/" + encodeURIComponent(confID), { headers: auth() });
    const text = resp.status === 200 ? "" : (await resp.clone().text()).trim();
    if (resp.status === 200) iceServers = (await resp.json()).ice_servers || [];
    else if (resp.status === 401 && text.includes("password")) {
      $("password-row").hidden = false;
      status("lobby-status", "This conference has a password.");
    } else if (resp.status === 401) {
      status("lobby-status", "This link has no valid token and you are not logged in.");
    } else status("lobby-status", "Cannot join: " + text);
  } catch (e) { /* offline: the join reports it */ }
  previewed = preview();
}

init();
