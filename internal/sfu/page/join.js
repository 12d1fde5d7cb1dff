// Confer join page: publish the camera and microphone over WHIP, watch each
// other participant over WHEP, follow the room through the long-polled
// state endpoint (docs/media.md, "The join page").
"use strict";

const confID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);

const me = { stream: null, pub: null, screen: null, session: "", mtID: "", left: false };
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
  return { location: resp.headers.get("Location"), mtID: resp.headers.get("X-Confer-Mt-Id") };
}

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
    me.pub = { pc, location: r.location };
    me.session = r.location.split("/").pop();
    me.mtID = r.mtID;
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" && !me.left) status("room-status", "Connection lost.");
    });
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
  status("room-status", mine && mine.muted ? "The chair muted you." : (mine && mine.silenced ? "The chair silenced you." : ""));
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

  // Layout: the composition's panes in order, else the speaker large.
  const tiles = $("tiles");
  const speaker = state.speaker || "";
  tiles.className = speaker || state.dual ? "layout-speaker" : "layout-grid";
  for (const tile of tiles.children) tile.classList.remove("large");
  const large = document.querySelector('.tile[data-key="dual"]') ||
    document.querySelector('.tile[data-key="mt:' + speaker + '"]') || (speaker === me.mtID && speaker ? document.querySelector('.tile[data-key="me"]') : null);
  if (large) { large.classList.add("large"); tiles.prepend(large); }
  if (state.panes && state.panes.length) {
    for (const id of state.panes.slice().reverse()) {
      const t = document.querySelector('.tile[data-key="mt:' + id + '"]') || (id === me.mtID ? document.querySelector('.tile[data-key="me"]') : null);
      if (t) tiles.prepend(t);
    }
  }
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

function toggle(kind, button, onText, offText) {
  if (!me.stream) return;
  for (const t of me.stream.getTracks()) if (t.kind === kind) t.enabled = !t.enabled;
  const on = me.stream.getTracks().some((t) => t.kind === kind && t.enabled);
  button.textContent = on ? onText : offText;
  button.classList.toggle("off", !on);
}

async function share() {
  if (me.screen) { stopShare(); return; }
  try {
    const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const pc = new RTCPeerConnection({ iceServers });
    for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: "sendonly", streams: [stream] });
    const r = await negotiate(pc, "/rtc/whip/" + encodeURIComponent(confID) + "?dual=1&viewer=" + me.session);
    me.screen = { pc, location: r.location, stream };
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
  $("mute").addEventListener("click", () => toggle("audio", $("mute"), "Mute", "Unmute"));
  $("camera").addEventListener("click", () => toggle("video", $("camera"), "Stop camera", "Start camera"));
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
