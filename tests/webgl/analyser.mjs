// analyser.mjs: what a WebAudio AnalyserNode (Chromium's own, the one shadertoy.com's music channels
// read) gives for an audio file at given frame times: the site's 512x2 music texture as bytes.
//
//   node analyser.mjs FILE.wav FPS FRAME...   -> one line per frame: 1024 bytes as hex (spectrum, waveform)
//   node analyser.mjs --speakers OUT.f32 FILE.wav FPS FRAME...   -> also what the two speakers play, from
//        the start to two frames past the last: the context's stereo output as interleaved 32-bit floats
//        (WebAudio's own up-mix or down-mix of the file's channels)
//
// An OfflineAudioContext plays the file into an analyser (fftSize 2048, smoothing 0.8, -100..-30 dB),
// suspended at every frame time from 0 on, where getByteFrequencyData is read (smoothing runs per read,
// as the site reads once a frame). Chromium rounds each suspend time up to a 128-sample render quantum,
// so a frame time inside one reads the analyser as that whole quantum left it.
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';

const argv = process.argv.slice(2);
const speakers = argv[0] === '--speakers' ? argv.splice(0, 2)[1] : null;
const [file, fpsArg, ...frames] = argv;
const fps = Number(fpsArg);
const want = frames.map(Number);
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
                                         args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
try {
  const page = await browser.newPage();
  const out = await page.evaluate(async (b64, fps, want) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const probe = new OfflineAudioContext(2, 1, 44100);
    const buf = await probe.decodeAudioData(bytes.buffer);
    const last = Math.max(...want);
    const len = Math.ceil(((last + 2) / fps) * 44100);
    const ctx = new OfflineAudioContext(2, len, 44100);
    const src = ctx.createBufferSource();
    src.buffer = buf;
    src.loop = true;
    const an = ctx.createAnalyser();
    an.fftSize = 2048;
    an.smoothingTimeConstant = 0.8;
    an.minDecibels = -100;
    an.maxDecibels = -30;
    src.connect(an);
    an.connect(ctx.destination);
    const res = {};
    const freq = new Uint8Array(512), wave = new Uint8Array(512);
    for (let i = 1; i <= last; i++) {
      ctx.suspend(i / fps).then(() => {
        an.getByteFrequencyData(freq);
        an.getByteTimeDomainData(wave);
        if (want.includes(i)) res[i] = Array.from(freq).concat(Array.from(wave));
        ctx.resume();
      });
    }
    src.start(0);
    const played = await ctx.startRendering();
    const l = played.getChannelData(0), r = played.getChannelData(1), lr = new Float32Array(2 * played.length);
    for (let k = 0; k < played.length; k++) lr[2 * k] = l[k], lr[2 * k + 1] = r[k];
    let bin = '';
    const u8 = new Uint8Array(lr.buffer);
    for (let k = 0; k < u8.length; k++) bin += String.fromCharCode(u8[k]);
    return { res, played: btoa(bin) };
  }, fs.readFileSync(file).toString('base64'), fps, want);
  for (const i of want) console.log(Buffer.from(out.res[i]).toString('hex'));
  if (speakers) fs.writeFileSync(speakers, Buffer.from(out.played, 'base64'));
} finally {
  await browser.close();
}
