// Forms in people's words (docs/console.md "Forms"): each field has a
// label and a line of help instead of its wire name, related settings are
// grouped, and choices are named. A field is shown only when the
// endpoint's schema (GET /api/openapi.json) has it at the platform's
// release, so an older release's form has no field it would refuse.
import { h } from './ui.js';

const onOff = [[0, 'Off'], [1, 'On']];
const noYes = [[0, 'No'], [1, 'Yes']];

// The settings of a conference, a template and a virtual room (reference
// 04 "创建会议"; defaults as docs/conferences.md "Defaults" gives them).
// kind: int, text, secret, choice (options), check (0/1 as a checkbox).
export const CONF_GROUPS = [
  {
    title: 'Basics', fields: [
      { name: 'duration', label: 'Length (minutes)', help: '0 keeps the conference until it is ended', kind: 'int', def: 0, min: 0 },
      { name: 'max_join_mt', label: 'Participants at most', kind: 'choice', def: 192, options: [[8, '8'], [32, '32'], [64, '64'], [192, '192']] },
      { name: 'bitrate', label: 'Bit rate (kbit/s)', help: 'of the main video; each participant is called at this rate or lower', kind: 'int', def: 2048, min: 0 },
      { name: 'password', label: 'Password to join', help: 'letters, digits, _ and . only; empty: none', kind: 'secret', def: '' },
    ],
  },
  {
    title: 'Calling participants', fields: [
      { name: 'call_mode', label: 'Calling', kind: 'choice', def: 2, options: [[2, 'Call everyone when the conference starts'], [0, 'Call by hand'], [3, 'Keep calling until they answer']] },
      { name: 'call_times', label: 'Attempts per participant', help: '0: no limit', kind: 'int', def: 3, min: 0 },
      { name: 'call_interval', label: 'Seconds between attempts', kind: 'int', def: 20, min: 0 },
    ],
  },
  {
    title: 'Audio and video', fields: [
      { name: 'mute', label: 'Participants join muted', kind: 'check', def: 0 },
      { name: 'silence', label: 'Participants join with their speaker off', kind: 'check', def: 0 },
      { name: 'mute_filter', label: 'Muting everyone spares the speaker and the chair', kind: 'check', def: 0 },
      { name: 'voice_activity_detection', label: 'The loudest participant becomes the speaker', kind: 'check', def: 0 },
      { name: 'vacinterval', label: 'Seconds of speech before the speaker changes', kind: 'int', def: 5, min: 0 },
      { name: 'video_format', label: 'Video codec', kind: 'choice', def: 4, video: 'format', options: [[4, 'H.264 High Profile'], [5, 'H.264 Baseline'], [6, 'H.265'], [3, 'H.263'], [2, 'H.261'], [1, 'MPEG-4']] },
      { name: 'video_resolution', label: 'Resolution', kind: 'choice', def: 12, video: 'resolution', options: [[12, '720p (1280×720)'], [13, '1080p (1920×1080)'], [16, '4K'], [3, '4CIF (704×576)'], [15, 'W4CIF (1024×576)'], [2, 'CIF (352×288)'], [14, 'WCIF (512×288)'], [1, 'QCIF (176×144)']] },
      { name: 'video_frame', label: 'Frames per second', kind: 'choice', def: 30, video: 'frame', options: [[30, '30'], [25, '25'], [60, '60'], [15, '15'], [5, '5']] },
      { name: 'video_quality', label: 'When bandwidth is short', kind: 'choice', def: 0, options: [[0, 'Keep the picture sharp'], [1, 'Keep the motion smooth']] },
      { name: 'dual_mode', label: 'Who may share content', kind: 'choice', def: 1, options: [[1, 'Any participant'], [0, 'The speaker only']] },
      { name: 'doubleflow', label: 'Share content on becoming the speaker', kind: 'check', def: 0 },
    ],
  },
  {
    title: 'Privacy and security', fields: [
      { name: 'closed_conf', label: 'Do not disturb', help: 'nobody joins who was not invited', kind: 'check', def: 0 },
      { name: 'safe_conf', label: 'Hidden', help: 'not listed to terminals looking for a conference', kind: 'check', def: 0 },
      { name: 'public_conf', label: 'Guest room', kind: 'check', def: 0 },
      { name: 'encrypted_type', label: 'Media encryption', kind: 'choice', def: 0, options: [[0, 'None'], [2, 'AES'], [3, 'SM4'], [4, 'SM1']] },
      { name: 'encrypted_key', label: 'Encryption key', help: 'for AES, SM4 or SM1; empty: none', kind: 'secret', def: '' },
      { name: 'encrypted_auth', label: 'Terminals authenticate each other', kind: 'check', def: 0 },
    ],
  },
  {
    title: 'Advanced', closed: true, fields: [
      { name: 'conf_type', label: 'Media', kind: 'choice', def: 0, options: [[0, 'Mixed by the platform'], [1, 'Port conference'], [2, 'Forwarded (SFU)']] },
      { name: 'auto_end', label: 'End when the last participant leaves', kind: 'check', def: 0 },
      { name: 'preoccupy_resource', label: 'Reserve the ports at the start', kind: 'check', def: 0 },
      { name: 'one_reforming', label: 'One reforming', kind: 'check', def: 0 },
      { name: 'fec_mode', label: 'Forward error correction', kind: 'check', def: 0 },
      { name: 'cascade_mode', label: 'Cascading', kind: 'choice', def: 1, options: [[1, 'Merged'], [0, 'Simple']] },
      { name: 'cascade_upload', label: 'Send to the upper conference', kind: 'check', def: 1 },
      { name: 'cascade_return', label: 'Receive from the upper conference', kind: 'check', def: 0 },
      { name: 'cascade_return_para', label: 'Bandwidth received from the upper conference', kind: 'int', def: 0, min: 0 },
      { name: 'bind_e164', label: 'Give it a fixed number', kind: 'check', def: 0 },
      { name: 'enable_rtc', label: 'Admit WebRTC terminals', kind: 'check', def: 0 },
      { name: 'multi_stream', label: 'Several streams per participant', kind: 'check', def: 0 },
      { name: 'conf_level', label: 'Priority (1 highest, 16 lowest)', kind: 'int', def: 16, min: 0, max: 16 },
    ],
  },
];

// present tells whether a spec's field is in the endpoint's schema
// (video fields are inside video_formats).
function present(spec, props) {
  if (spec.video) return Boolean(props.video_formats);
  return Boolean(props[spec.name]);
}

// input renders one field: label, control, help.
export function input(spec, value) {
  const id = `f-${spec.name}`;
  const v = value ?? spec.def;
  let el;
  if (spec.kind === 'check') {
    el = h('input', { id, name: spec.name, type: 'checkbox', checked: Number(v) === 1 });
    el.dataset.kind = 'check';
    return h('div', { class: 'field check' }, h('label', { for: id }, el, ' ', spec.label), spec.help && h('small', {}, spec.help));
  }
  if (spec.kind === 'choice') {
    const opts = spec.options.some(([o]) => o === Number(v)) || v === undefined ? spec.options : [...spec.options, [Number(v), String(v)]];
    el = h('select', { id, name: spec.name }, opts.map(([o, label]) => h('option', { value: o, selected: o === Number(v) }, label)));
    el.dataset.kind = 'int';
  } else {
    const type = spec.kind === 'int' ? 'number' : spec.kind === 'secret' ? 'password' : (spec.type || 'text');
    el = h('input', {
      id, name: spec.name, type, value: v ?? '', min: spec.min, max: spec.max, step: spec.kind === 'int' ? 1 : undefined,
      required: spec.required, autocomplete: spec.kind === 'secret' ? 'new-password' : spec.autocomplete,
    });
    el.dataset.kind = spec.kind === 'int' ? 'int' : 'text';
  }
  return h('div', { class: 'field' }, h('label', { for: id }, spec.label), el, spec.help && h('small', {}, spec.help));
}

// settings renders the groups of CONF_GROUPS that the schema has, filled
// from rec (a template, a room, a conference) or the defaults.
export function settings(props, rec = {}) {
  const vf = rec.video_formats?.[0] || {};
  return h('div', { class: 'settings-groups' }, CONF_GROUPS.map((g) => {
    const fields = g.fields.filter((s) => present(s, props)).map((s) => input(s, s.video ? vf[s.video] : rec[s.name]));
    if (!fields.length) return null;
    const body = h('div', { class: 'settings' }, fields);
    return g.closed
      ? h('details', { class: 'group' }, h('summary', {}, g.title), body)
      : h('fieldset', { class: 'group' }, h('legend', {}, g.title), body);
  }));
}

// fill sets the settings' controls from a record (creating from a
// template shows the template's values).
export function fill(box, rec) {
  const vf = rec.video_formats?.[0] || {};
  for (const g of CONF_GROUPS) {
    for (const s of g.fields) {
      const el = box.querySelector(`[name="${s.name}"]`);
      if (!el) continue;
      const v = s.video ? vf[s.video] : rec[s.name];
      if (el.type === 'checkbox') el.checked = Number(v ?? s.def) === 1;
      else if (el.tagName === 'SELECT' && v !== undefined && ![...el.options].some((o) => o.value === String(v))) {
        el.append(h('option', { value: v }, String(v)));
        el.value = String(v);
      } else el.value = v ?? s.def ?? '';
    }
  }
}

// values reads controls into the wire's fields: integers as numbers,
// checkboxes as 0 or 1, empty text left out; the video fields become
// video_formats[0] with the bit rate.
export function values(box) {
  const out = {};
  const vf = {};
  const specs = new Map(CONF_GROUPS.flatMap((g) => g.fields).map((s) => [s.name, s]));
  for (const el of box.querySelectorAll('input[name], select[name]')) {
    let v;
    if (el.dataset.kind === 'check') v = el.checked ? 1 : 0;
    else if (el.value === '') continue;
    else v = el.dataset.kind === 'int' ? Number(el.value) : el.value;
    const s = specs.get(el.name);
    if (s?.video) vf[s.video] = v;
    else out[el.name] = v;
  }
  if (Object.keys(vf).length) out.video_formats = [{ ...vf, bitrate: out.bitrate ?? 2048 }];
  return out;
}

// confDefaults are the settings' defaults as wire fields.
export function confDefaults(props) {
  const box = settings(props);
  return values(box);
}
