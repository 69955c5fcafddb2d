// render.mjs: renders one frame of a toy with WebGL2 in Debian's headless Chromium (the platform
// shadertoy.com runs on), to a PNG that tests hold against `ikshade render`'s.
//
//   node render.mjs TOY -o OUT.png [--size WxH] [--frame N] [--time T0] [--fps F] [--mouse X,Y[,CX,CY]]
//                   [--channelN FILE[,filter=..,wrap=..,vflip=..,srgb=..]|keyboard]
//   node render.mjs TOY.json --wav N -o OUT.wav
//   ... [--gl swiftshader|llvmpipe]
//
// --wav: the toy's sound pass instead, its first N samples (up to the site's 180 s, drawn as the site
// draws them, 512x512 at a time) as the site packs them, in a 44100 Hz 16-bit stereo WAV.
//
// --gl: what ANGLE draws with. swiftshader (the default) is the WebGL2 of a machine without a GPU, as
// the site's pixels in shared/ were taken; llvmpipe is the arbiter: ANGLE over this machine's own GL
// through EGL, the GL ikshade draws with, so that what still differs is the page's semantics and not
// two renderers' sin() or rounding.
//
// TOY is the site's JSON (media looked up beside it: under the path it gives, then by file name), a
// single shader file (an Image pass; its channels from --channelN, relative to the current directory),
// or one of ikshade's directory toys (image.glsl, common.glsl, a..d.glsl, cube_a.glsl, manifest.txt),
// turned into the site's JSON here. Frames 0..N are drawn, the last
// saved. Test tooling: needs npm's puppeteer-core (installed by tests/test_webgl.sh), and CHROMIUM or
// /usr/bin/chromium.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const die = (msg, code = 2) => {
  process.stderr.write(`webgl render: ${msg}\n`);
  process.exit(code);
};

const args = process.argv.slice(2);
const o = { size: [320, 180], frame: 0, time: 0, fps: 60, mouse: null, out: null, toy: null, channels: {}, wav: 0,
            gl: 'swiftshader' };
for (let k = 0; k < args.length; k++) {
  const a = args[k], v = () => (k + 1 < args.length ? args[++k] : die(`${a} needs a value`));
  if (a === '-o') o.out = v();
  else if (a === '--size') {
    const m = /^(\d+)x(\d+)$/.exec(v());
    if (!m) die('--size: expected WxH');
    o.size = [Number(m[1]), Number(m[2])];
  } else if (a === '--frame') o.frame = Number(v());
  else if (a === '--time') o.time = Number(v());
  else if (a === '--wav') o.wav = Number(v());
  else if (a === '--gl') {
    o.gl = v();
    if (o.gl !== 'swiftshader' && o.gl !== 'llvmpipe') die(`--gl: '${o.gl}': expected swiftshader or llvmpipe`);
  }
  else if (a === '--fps') o.fps = Number(v());
  else if (a === '--mouse') {
    const m = v().split(',').map(Number);
    o.mouse = m.length === 2 ? [m[0], m[1], m[0], m[1]] : m;
  } else if (/^--channel[0-3]$/.test(a)) o.channels[Number(a[9])] = v();
  else if (a.startsWith('-')) die(`unknown option '${a}'`);
  else o.toy = a;
}
if (!o.toy || !o.out) die('usage: render.mjs TOY -o OUT.png [--size WxH] [--frame N] ...');
if (!Number.isInteger(o.frame) || o.frame < 0) die('--frame: expected a frame number');

// The toy as the site's JSON, and the media it names as data URLs
const readMedia = (dir, p) => {
  const cands = path.isAbsolute(p) && fs.existsSync(p) ? [p] : [];
  for (const cand of [...cands, path.join(dir, p.replace(/^\/+/, '')), path.join(dir, path.basename(p))]) {
    if (fs.existsSync(cand)) {
      const ext = path.extname(cand).toLowerCase();
      const mime = ext === '.jpg' || ext === '.jpeg' ? 'image/jpeg' : 'image/png';
      return `data:${mime};base64,${fs.readFileSync(cand).toString('base64')}`;
    }
  }
  die(`${p}: not found beside the toy`, 1);
};
// a channel spec (--channelN's, or a manifest's) as the site's JSON input; files relative to base
const BUFS = { a: 257, b: 258, c: 259, d: 260 };
const inputOf = (channel, spec, base) => {
  const [what, ...kv] = spec.split(',');
  const sampler = Object.fromEntries(kv.map((x) => x.split('=')));
  for (const k of ['vflip', 'srgb']) if (k in sampler) sampler[k] = sampler[k] === '1' || sampler[k] === 'true' ? 'true' : 'false';
  if (what === 'keyboard') return { channel, type: 'keyboard' };
  if (BUFS[what]) return { channel, type: 'buffer', id: BUFS[what], sampler };
  if (what === 'cube_a') return { channel, type: 'cubemap', id: '4dX3Rr', sampler };
  if (what.startsWith('cube:')) return { channel, type: 'cubemap', filepath: path.resolve(base, what.slice(5)), sampler };
  return { channel, type: 'texture', filepath: path.resolve(base, what), sampler };
};
let toy;
let dir = path.dirname(o.toy);
if (fs.statSync(o.toy).isDirectory()) {
  dir = o.toy;
  const read = (f) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : null);
  const passes = [];
  const common = read('common.glsl');
  if (common !== null) passes.push({ type: 'common', name: 'Common', code: common, inputs: [], outputs: [] });
  for (const b of ['a', 'b', 'c', 'd']) {
    const code = read(`${b}.glsl`);
    if (code !== null)
      passes.push({ type: 'buffer', name: `Buffer ${b.toUpperCase()}`, code, inputs: [], outputs: [{ id: BUFS[b], channel: 0 }], key: b });
  }
  const cubeCode = read('cube_a.glsl');
  if (cubeCode !== null) passes.push({ type: 'cubemap', name: 'Cube A', code: cubeCode, inputs: [], outputs: [{ id: '4dX3Rr', channel: 0 }], key: 'cube_a' });
  passes.push({ type: 'image', name: 'Image', code: read('image.glsl'), inputs: [], outputs: [], key: 'image' });
  for (const line of (read('manifest.txt') || '').split('\n')) {
    const m = /^\s*([a-z_]+)\.iChannel([0-3])\s*=\s*([^#\s]+)/.exec(line);
    if (!m) continue;
    const pass = passes.find((p) => p.key === m[1]);
    if (!pass) die(`${o.toy}: manifest names a pass '${m[1]}' the toy lacks`, 1);
    pass.inputs.push(inputOf(Number(m[2]), m[3], dir));
  }
  toy = { renderpass: passes };
} else if (o.toy.endsWith('.json')) {
  const j = JSON.parse(fs.readFileSync(o.toy, 'utf8'));
  toy = j.Shader || j;
} else {
  const inputs = Object.entries(o.channels).map(([c, s]) => inputOf(Number(c), s, process.cwd()));
  toy = { renderpass: [{ type: 'image', name: 'Image', code: fs.readFileSync(o.toy, 'utf8'), inputs, outputs: [] }] };
}
const media = {};
for (const p of toy.renderpass || []) {
  for (const inp of p.inputs || []) {
    const t = inp.type || inp.ctype, f = inp.filepath || inp.src;
    if (t === 'texture') media[f] = readMedia(dir, f);
    // Cube A (the site's cubemap pass) is drawn, not loaded
    if (t === 'cubemap' && !(inp.id === '4dX3Rr' || /previz\/cubemap00/.test(f || '')))
      for (let k = 0; k < 6; k++) {
        const fk = k === 0 ? f : f.replace(/(\.[^./]*)$/, `_${k}$1`);
        media[fk] = readMedia(dir, fk);
      }
  }
}

const GL_ARGS = {
  swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  llvmpipe: ['--use-gl=angle', '--use-angle=gl-egl', '--ozone-platform=headless'],
};
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', ...GL_ARGS[o.gl], '--ignore-gpu-blocklist', '--disable-dev-shm-usage'],
});
let res;
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: fs.readFileSync(path.join(here, 'site.js'), 'utf8') });
  res = o.wav ? await page.evaluate((spec) => window.iksSound(spec), { toy, n: o.wav })
    : await page.evaluate((spec) => window.iksRender(spec), {
      toy, media, width: o.size[0], height: o.size[1], frame: o.frame, time0: o.time, fps: o.fps, mouse: o.mouse,
    });
} catch (e) {
  await browser.close();
  die(`${o.toy}: ${String(e.message || e).split('\n').filter(Boolean).slice(0, 3).join(' | ')}`, 1);
}
await browser.close();

if (o.wav) {
  const pcm = Buffer.from(res.pcm, 'base64');
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(44100, 24);
  h.writeUInt32LE(44100 * 4, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(pcm.length, 40);
  fs.writeFileSync(`${o.out}.tmp`, Buffer.concat([h, pcm]));
  fs.renameSync(`${o.out}.tmp`, o.out);
  process.stdout.write(`${o.out}: ${o.wav} samples of the sound pass\n`);
  process.exit(0);
}

// An 8-bit RGB PNG (the site ignores alpha; so does ikshade's default), written whole then renamed
const [W, H] = o.size;
const rgba = Buffer.from(res.rgba, 'base64');
const raw = Buffer.alloc(H * (1 + W * 3));
for (let y = 0; y < H; y++)
  for (let x = 0; x < W; x++) rgba.copy(raw, y * (1 + W * 3) + 1 + x * 3, (y * W + x) * 4, (y * W + x) * 4 + 3);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (b) => {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, body) => {
  const t = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const n = Buffer.alloc(4), c = Buffer.alloc(4);
  n.writeUInt32BE(body.length);
  c.writeUInt32BE(crc(t));
  return Buffer.concat([n, t, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(W, 0);
ihdr.writeUInt32BE(H, 4);
ihdr[8] = 8;
ihdr[9] = 2;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
                           chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
fs.writeFileSync(`${o.out}.tmp`, png);
fs.renameSync(`${o.out}.tmp`, o.out);
process.stdout.write(`${o.out}: ${W}x${H}, frame ${o.frame}, ${res.renderer}\n`);
