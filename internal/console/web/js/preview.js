// The broadcast preview of a running conference: a WHEP session with
// ?preview=1 (docs/media.md "Preview"), admitted by the login cookie of an
// account that may control the conference. It receives what WHEP viewers
// receive (the speaker, else the most recently active publisher) without
// becoming a terminal: it is not listed, not counted against max_join_mt.
import { h, message } from './ui.js';

// waitGathered resolves once the connection has its candidates (the SFU
// does not take trickled candidates from a WHEP POST), or after 2 s.
function waitGathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, 2000);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') { clearTimeout(t); resolve(); }
    });
  });
}

// previewPanel returns the panel (kept across the page's renders) and a
// stop function for when the page goes away.
export function previewPanel(id) {
  const video = h('video', { id: 'preview-video', autoplay: true, playsInline: true, muted: true, 'aria-label': 'broadcast preview' });
  const state = h('span', { id: 'preview-state', class: 'meta' }, 'off');
  const button = h('button', { id: 'preview-toggle', 'aria-pressed': 'false', onclick: () => (pc ? stop() : start()) }, 'Preview');
  const sound = h('button', { id: 'preview-sound', 'aria-pressed': 'false', onclick: () => {
    video.muted = !video.muted;
    sound.setAttribute('aria-pressed', String(!video.muted));
    sound.textContent = video.muted ? 'Sound off' : 'Sound on';
  } }, 'Sound off');
  const el = h('section', { class: 'panel preview', 'aria-label': 'broadcast preview' },
    h('h2', {}, 'Broadcast ', h('small', {}, 'WHEP preview')), video, h('div', { class: 'toolbar' }, button, sound, state));
  let pc = null;
  let location = '';

  function show(text) {
    state.textContent = text;
    button.setAttribute('aria-pressed', String(!!pc));
    button.textContent = pc ? 'Stop preview' : 'Preview';
  }

  async function start() {
    pc = new RTCPeerConnection();
    show('connecting');
    const stream = new MediaStream();
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.ontrack = (e) => { stream.addTrack(e.track); video.srcObject = stream; };
    const mine = pc;
    pc.onconnectionstatechange = () => {
      if (pc !== mine) return;
      show(mine.connectionState);
      if (mine.connectionState === 'failed') stop();
    };
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await waitGathered(pc);
      const r = await fetch(`/rtc/whep/${encodeURIComponent(id)}?preview=1`, {
        method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
      });
      const body = await r.text();
      if (r.status !== 201) throw new Error(`preview refused: ${r.status} ${body.trim()}`);
      if (pc !== mine) return; // stopped meanwhile
      location = r.headers.get('Location') || '';
      await pc.setRemoteDescription({ type: 'answer', sdp: body });
    } catch (e) {
      message(e.message, 'error');
      stop();
    }
  }

  function stop() {
    if (location) fetch(location, { method: 'DELETE', credentials: 'same-origin' }).catch(() => {});
    location = '';
    if (pc) pc.close();
    pc = null;
    video.srcObject = null;
    show('off');
  }

  return { el, stop };
}
