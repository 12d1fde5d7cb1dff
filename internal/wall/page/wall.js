// The TV wall page (docs/live.md "TV walls"): reads what the wall shows
// from /wall/{hdu_id}/state every 3 s and keeps one WHEP connection per
// channel, replaced when the channel's stream changes. The session cookie
// authenticates both the state and the WHEP requests (same origin).
// Every channel's audio is the conference's mix; the lowest channel plays
// it, the others stay muted.
"use strict";
const hduID = decodeURIComponent(location.pathname.split("/")[2] || "");
const wall = document.getElementById("wall");
const statusEl = document.getElementById("status");
const channels = new Map(); // chn_idx -> {url, pc, box, video, location}

let soundBlocked = false; // the browser refused sound before a click

function setStatus(s) { statusEl.textContent = s || (soundBlocked ? "click to hear the conference" : ""); }

// pickSound unmutes the lowest channel with a stream (the mix) and mutes
// the others.
function pickSound() {
  const idxs = [...channels.keys()].filter((i) => channels.get(i).pc).sort((a, b) => a - b);
  for (const [idx, ch] of channels) {
    const on = idx === idxs[0] && !soundBlocked;
    if (ch.video.muted === !on) continue;
    ch.video.muted = !on;
    if (on) {
      ch.video.play().catch(() => {
        soundBlocked = true; ch.video.muted = true; ch.video.play().catch(() => {}); setStatus("");
      });
    }
  }
}
document.addEventListener("click", () => { if (soundBlocked) { soundBlocked = false; setStatus(""); pickSound(); } });

async function whep(url, video) {
  const pc = new RTCPeerConnection();
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  const stream = new MediaStream();
  pc.ontrack = (e) => { stream.addTrack(e.track); video.srcObject = stream; video.play().catch(() => {}); };
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((done) => {
    if (pc.iceGatheringState === "complete") return done();
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") done(); };
    setTimeout(done, 2000);
  });
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/sdp" },
    body: pc.localDescription.sdp, credentials: "same-origin" });
  if (r.status !== 201) { pc.close(); throw new Error("WHEP " + r.status); }
  await pc.setRemoteDescription({ type: "answer", sdp: await r.text() });
  return { pc, location: r.headers.get("Location") };
}

function close(ch) {
  if (ch.pc) ch.pc.close();
  if (ch.location) fetch(ch.location, { method: "DELETE", credentials: "same-origin" }).catch(() => {});
  ch.pc = null; ch.location = null;
}

function channelBox(idx) {
  let ch = channels.get(idx);
  if (ch) return ch;
  const box = document.createElement("div");
  box.className = "chn";
  box.dataset.chn = idx;
  const video = document.createElement("video");
  video.muted = true; video.autoplay = true; video.playsInline = true;
  const name = document.createElement("div");
  name.className = "name";
  const empty = document.createElement("div");
  empty.className = "empty";
  box.append(video, name, empty);
  ch = { url: "", pc: null, location: null, box, video, name, empty };
  channels.set(idx, ch);
  return ch;
}

async function render(st) {
  document.getElementById("title").textContent = "TV wall " + st.hdu_id + (st.conf_name ? " \u2014 " + st.conf_name : "");
  if (!st.running) { setStatus("not in use"); }
  else { setStatus(""); }
  wall.className = "mode-" + (st.mode || 1);
  const want = new Set();
  for (const c of st.channels) {
    want.add(c.chn_idx);
    const ch = channelBox(c.chn_idx);
    ch.name.textContent = st.show_mt_name ? c.name : "";
    ch.empty.textContent = c.whep_url ? "" : "no picture";
    ch.box.style.order = c.chn_idx;
    if (!ch.box.parentNode) wall.append(ch.box);
    if (ch.url !== c.whep_url) {
      close(ch);
      ch.url = c.whep_url;
      ch.video.srcObject = null;
      if (c.whep_url) {
        try { Object.assign(ch, await whep(c.whep_url, ch.video)); }
        catch (e) { ch.url = ""; ch.empty.textContent = String(e.message || e); }
      }
    }
  }
  for (const [idx, ch] of channels) {
    if (!want.has(idx)) { close(ch); ch.box.remove(); channels.delete(idx); }
  }
  pickSound();
}

async function tick() {
  try {
    const r = await fetch("/wall/" + encodeURIComponent(hduID) + "/state", { credentials: "same-origin" });
    if (r.status === 401) { setStatus("log in to the platform to see this wall"); }
    else if (r.ok) { await render(await r.json()); }
    else { setStatus("state unavailable (" + r.status + ")"); }
  } catch (e) { setStatus("offline"); }
  setTimeout(tick, 3000);
}
window.addEventListener("pagehide", () => { for (const ch of channels.values()) close(ch); });
tick();
