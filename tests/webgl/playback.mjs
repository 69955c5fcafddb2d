// playback.mjs: plays a video in a <video> element of Debian's headless Chromium, as a browser viewer
// of a film would, and says what it saw, for tests that hold films (a film joined from segments) to
// what a browser shows.
//
//   node playback.mjs FILM --at T1,T2,... [--bits B]
//
// Prints one JSON object: canPlay (the element's canPlayType for the file's type), readyState once
// loaded, duration, width and height; for each time T the frame shown after seeking there; and then
// `played`: the film played from its start to its end (ended), and the frame shown there. Frames are read
// from a canvas it was drawn into as a number: the toy of tests/test_playback.sh draws bit b of iFrame
// as column b of B (white: 1), each read at the column's centre on the middle row (over 128: 1), so
// codec loss changes nothing unless a column changes colour. An error (the file cannot be played, a
// seek that never ends) is one line on stderr and exit 1.
//
// The page and the film come from a server on 127.0.0.1 of this process, with Range requests (what a
// <video> element seeks with, as on any web server): a file:// film would taint the canvas.
// Test tooling: needs npm's puppeteer-core (tests/webgl/install.sh), and CHROMIUM or /usr/bin/chromium.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const die = (msg) => {
  process.stderr.write(`playback: ${msg}\n`);
  process.exit(1);
};
const args = process.argv.slice(2);
let film = null, at = [], bits = 8;
for (let k = 0; k < args.length; k++) {
  const a = args[k], v = () => (k + 1 < args.length ? args[++k] : die(`${a} needs a value`));
  if (a === '--at') at = v().split(',').map((x) => (x === '' ? NaN : Number(x)));
  else if (a === '--bits') bits = Number(v());
  else if (a.startsWith('-')) die(`unknown option '${a}'`);
  else film = a;
}
if (!film || at.some((t) => !Number.isFinite(t) || t < 0)) die('usage: playback.mjs FILM --at T1,T2,... [--bits B]');
if (!fs.existsSync(film)) die(`${film}: no such file`);
const TYPES = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mkv': 'video/x-matroska' };
const type = TYPES[path.extname(film).toLowerCase()] || 'application/octet-stream';

// shown(bits): the number the frame the element shows now carries, drawn into the canvas and read
const PAGE = `<!doctype html><video id=v muted preload=auto></video><canvas id=c></canvas><script>
function shown(bits) {
  const v = document.getElementById('v'), c = document.getElementById('c');
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(v, 0, 0);
  const row = g.getImageData(0, c.height >> 1, c.width, 1).data;
  let n = 0;
  for (let b = 0; b < bits; b++) if (row[4 * Math.floor((b + 0.5) * c.width / bits)] > 128) n |= 1 << b;
  return n;
}
</script>`;
const bytes = fs.readFileSync(film);
const server = http.createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    return res.end(PAGE);
  }
  if (req.url !== '/film') {
    res.writeHead(404);
    return res.end();
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range || '');
  let first = 0, last = bytes.length - 1, code = 200;
  if (m) {
    code = 206;
    if (m[1] !== '') first = Number(m[1]);
    if (m[2] !== '') last = Math.min(Number(m[2]), last);
    if (m[1] === '' && m[2] !== '') first = Math.max(0, bytes.length - Number(m[2]));
  }
  const head = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Content-Length': last - first + 1 };
  if (code === 206) head['Content-Range'] = `bytes ${first}-${last}/${bytes.length}`;
  res.writeHead(code, head);
  res.end(bytes.subarray(first, last + 1));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
                                         args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
let out;
try {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  out = await page.evaluate(async (type, at, bits) => {
    const v = document.getElementById('v'), c = document.getElementById('c');
    const r = { canPlay: v.canPlayType(type) };
    const loaded = new Promise((ok, no) => {
      v.addEventListener('loadeddata', ok, { once: true });
      v.addEventListener('error', () => no(new Error(`the <video> element cannot play it (MediaError ${v.error && v.error.code}: ${v.error && v.error.message})`)), { once: true });
      setTimeout(() => no(new Error('not loaded after 30 s')), 30000);
    });
    v.src = '/film';
    await loaded;
    Object.assign(r, { readyState: v.readyState, duration: v.duration, width: v.videoWidth, height: v.videoHeight });
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    r.frames = [];
    for (const t of at) {
      await new Promise((ok, no) => {
        const timer = setTimeout(() => no(new Error(`seeking to ${t} s never ended`)), 30000);
        v.addEventListener('seeked', () => { clearTimeout(timer); ok(); }, { once: true });
        v.currentTime = t;
      });
      // the frame the element shows is drawn once it is presented (requestVideoFrameCallback where
      // there is one; a seek presents a frame even when paused)
      if (v.requestVideoFrameCallback) await Promise.race([new Promise((ok) => v.requestVideoFrameCallback(ok)),
                                                           new Promise((ok) => setTimeout(ok, 500))]);
      r.frames.push({ at: t, shown: v.currentTime, number: shown(bits), readyState: v.readyState });
    }
    return r;
  }, type, at, bits);
  // played through at its own rate, as a viewer watches it: 'ended' must come, without an error
  out.played = await page.evaluate(async (bits) => {
    const v = document.getElementById('v');
    v.currentTime = 0;
    await new Promise((ok) => v.addEventListener('seeked', ok, { once: true }));
    const ended = new Promise((ok, no) => {
      v.addEventListener('ended', ok, { once: true });
      v.addEventListener('error', () => no(new Error(`playing: MediaError ${v.error && v.error.code}`)), { once: true });
      setTimeout(() => no(new Error(`playing: not ended after 60 s (at ${v.currentTime} s)`)), 60000);
    });
    await v.play();
    await ended;
    return { ended: v.ended, at: v.currentTime, number: shown(bits) };
  }, bits);
} catch (e) {
  await browser.close();
  server.close();
  die(`${film}: ${e.message.split('\n')[0]}`);
}
await browser.close();
server.close();
process.stdout.write(JSON.stringify(out) + '\n');
