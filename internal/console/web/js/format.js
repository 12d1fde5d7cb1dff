// Figures as people read them: dates in the browser's zone, lengths in
// hours, minutes and seconds, sizes in KB, MB and GB (docs/console.md).

// unixTime writes Unix seconds (vrs' createtime, reference 09) as a local
// date and time.
export function unixTime(v) {
  const n = Number(v);
  if (!n) return '';
  return new Date(n * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// duration writes seconds as 1:02:03 or 2:03.
export function duration(v) {
  const n = Math.max(0, Math.round(Number(v) || 0));
  const hh = Math.floor(n / 3600);
  const mm = Math.floor((n % 3600) / 60);
  const ss = String(n % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// bytes writes a size with a decimal unit (1 MB = 1,000,000 bytes).
export function bytes(v) {
  let n = Number(v) || 0;
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let u = 0;
  while (n >= 1000 && u < units.length - 1) { n /= 1000; u++; }
  return u === 0 ? `${n} bytes` : `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
}

// programState names a program's prgstate (reference 09: 1 published).
export function programState(v) {
  return Number(v) === 1 ? 'published' : 'not published';
}
