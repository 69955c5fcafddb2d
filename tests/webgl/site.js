// site.js: runs in the browser page. Draws a toy in shadertoy.com's JSON form with WebGL2 the way the
// site does (its GLSL ES 3.00 prefix and effect.js's header for each pass type, line for line, so that
// __LINE__ counts as there; Buffers A-D as RGBA32F ping-pong pairs drawn before the Image pass,
// its sampler settings), so that ikshade's pixels can be held against what WebGL2 draws. It is test
// tooling: what it must agree with is the site, so it follows the site's conventions, never ikshade's
// code. Frame i is drawn at iTime = time0 + i/fps with ikshade's fixed iDate (2000-01-01, seconds = iTime)
// and --mouse conventions, which are render's deterministic choices for what the site takes from a clock.
'use strict';

window.iksRender = async function (spec) {
  const W = spec.width, H = spec.height;
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, preserveDrawingBuffer: true,
                                           premultipliedAlpha: false });
  if (!gl) throw new Error('no WebGL2 in this browser');
  // the site asks for these: float buffers to draw into and to filter
  if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('no EXT_color_buffer_float');
  const floatLinear = !!gl.getExtension('OES_texture_float_linear');
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);

  const passes = spec.toy.renderpass;
  const BUFFER_IDS = { 257: 0, 258: 1, 259: 2, 260: 3, '4dXGR8': 0, 'XsXGR8': 1, '4sXGR8': 2, 'XdfGR8': 3 };
  const bufferOf = (ref, path) => {
    if (ref !== undefined && BUFFER_IDS[ref] !== undefined) return BUFFER_IDS[ref];
    const m = /previz\/buffer0([0-3])\.png/.exec(path || '');
    return m ? Number(m[1]) : -1;
  };
  let common = '', hasCommon = false;
  let cubePass = null; // Cube A: six faces drawn after the buffers, read as a samplerCube
  const isCubeA = (id, path) => id === '4dX3Rr' || /previz\/cubemap00/.test(path || '');
  const slots = [null, null, null, null, null]; // A..D, Image
  const order = []; // the buffers in the JSON's pass order: the order the site draws them in
  for (const p of passes) {
    if (p.type === 'common') common = p.code, hasCommon = true;
    else if (p.type === 'image') slots[4] = p;
    else if (p.type === 'buffer') {
      const o = (p.outputs || [])[0];
      let b = o ? bufferOf(o.id) : -1;
      if (b < 0 && /^Buffer [A-D]$/.test(p.name || '')) b = p.name.charCodeAt(7) - 65;
      if (b < 0) throw new Error('a buffer pass whose output is none of A-D');
      slots[b] = p;
      order.push(b);
    } else if (p.type === 'cubemap') cubePass = p;
    else if (p.type !== 'sound') throw new Error(`pass type '${p.type}' is not drawn by this harness`);
  }
  if (!slots[4]) throw new Error('no image pass');

  // ---- inputs ---------------------------------------------------------------------------------------
  const loadImage = async (url) => {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img;
  };
  const setSampler = (target, s, mipmap) => {
    const f = s.filter || 'linear';
    const mag = f === 'nearest' ? gl.NEAREST : gl.LINEAR;
    const min = f === 'nearest' ? gl.NEAREST : f === 'mipmap' && mipmap ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR;
    const wrap = s.wrap === 'repeat' ? gl.REPEAT : gl.CLAMP_TO_EDGE;
    gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, mag);
    gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, min);
    gl.texParameteri(target, gl.TEXTURE_WRAP_S, wrap);
    gl.texParameteri(target, gl.TEXTURE_WRAP_T, wrap);
    if (target === gl.TEXTURE_CUBE_MAP) gl.texParameteri(target, gl.TEXTURE_WRAP_R, wrap);
  };
  const flag = (v, dflt) => (v === undefined ? dflt : v === true || v === 'true');
  const media = spec.media || {};
  slots.push(cubePass); // slot 5: Cube A
  const textures = []; // [slot][channel] -> { kind, tex, res, cube }
  for (let s = 0; s < 6; s++) {
    textures.push([null, null, null, null]);
    if (!slots[s]) continue;
    for (const inp of slots[s].inputs || []) {
      const c = inp.channel, type = inp.type || inp.ctype, smp = inp.sampler || {};
      const path = inp.filepath || inp.src;
      if (type === 'cubemap' && isCubeA(inp.id, path)) {
        if (!cubePass) throw new Error('an input reads Cube A, which the toy does not define');
        textures[s][c] = { kind: 'cubeA', sampler: smp, cube: true };
      } else if (type === 'buffer') {
        const b = bufferOf(inp.id, path);
        if (b < 0 || !slots[b]) throw new Error('an input reads a buffer the toy does not define');
        textures[s][c] = { kind: 'buffer', buffer: b, sampler: smp };
      } else if (type === 'keyboard') {
        const tex = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, tex);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, 256, 3, 0, gl.RED, gl.UNSIGNED_BYTE, new Uint8Array(256 * 3));
        setSampler(gl.TEXTURE_2D, { filter: 'nearest' }, false);
        textures[s][c] = { kind: 'image', tex, res: [256, 3, 1] };
      } else if (type === 'texture' || type === 'cubemap') {
        const cube = type === 'cubemap';
        const vflip = flag(smp.vflip, !cube), srgb = flag(smp.srgb, false);
        const mip = (smp.filter || 'linear') === 'mipmap';
        const tex = gl.createTexture();
        const target = cube ? gl.TEXTURE_CUBE_MAP : gl.TEXTURE_2D;
        gl.bindTexture(target, tex);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, vflip);
        gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
        gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
        const fmt = srgb ? gl.SRGB8_ALPHA8 : gl.RGBA8;
        let res = [0, 0, 1];
        const faces = cube ? 6 : 1;
        for (let f = 0; f < faces; f++) {
          const key = f === 0 ? path : path.replace(/(\.[^./]*)$/, `_${f}$1`);
          if (!media[key]) throw new Error(`media '${key}' was not given to the page`);
          const img = await loadImage(media[key]);
          const tgt = cube ? gl.TEXTURE_CUBE_MAP_POSITIVE_X + f : gl.TEXTURE_2D;
          gl.texImage2D(tgt, 0, fmt, gl.RGBA, gl.UNSIGNED_BYTE, img);
          res = [img.width, img.height, 1];
        }
        if (mip) gl.generateMipmap(target);
        setSampler(target, smp, mip);
        textures[s][c] = { kind: 'image', tex, res, cube };
      } else {
        throw new Error(`input type '${type}' is not drawn by this harness`);
      }
    }
  }

  // ---- programs -------------------------------------------------------------------------------------
  const compile = (type, text, name) => {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, text);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(`${name}: ${gl.getShaderInfoLog(sh)}`);
    return sh;
  };
  const VS = '#version 300 es\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n';
  const vs = compile(gl.VERTEX_SHADER, VS, 'vertex');
  const NAMES = ['Buffer A', 'Buffer B', 'Buffer C', 'Buffer D', 'Image', 'Cube A'];
  // The site's fragment text, line for line (effect.js's MakeHeader_Image/_Buffer/_Cubemap with WebGL2,
  // after piRenderer's 6-line prefix; Common and a newline, then the pass): __LINE__ counts these lines
  const PREFIX = '#version 300 es\n#ifdef GL_ES\nprecision highp float;\nprecision highp int;\n' +
                 'precision mediump sampler3D;\n#endif\n';
  const UNIFORMS = 'uniform vec3      iResolution;\n' + 'uniform float     iTime;\n' +
                   'uniform float     iChannelTime[4];\n' + 'uniform vec4      iMouse;\n' +
                   'uniform vec4      iDate;\n' + 'uniform float     iSampleRate;\n' +
                   'uniform vec3      iChannelResolution[4];\n' + 'uniform int       iFrame;\n' +
                   'uniform float     iTimeDelta;\n' + 'uniform float     iFrameRate;\n';
  const samplerOf = (s, c) => (textures[s][c] && textures[s][c].cube ? 'samplerCube' : 'sampler2D');
  const headerOf = (s) => {
    let h = '#define HW_PERFORMANCE 1\n' + UNIFORMS;
    if (s === 4) {
      for (let c = 0; c < 4; c++) {
        h += `uniform ${samplerOf(s, c)} iChannel${c};\n`;
        h += `uniform struct {\n  ${samplerOf(s, c)} sampler;\n  vec3  size;\n  float time;\n  int   loaded;\n}iCh${c};\n`;
      }
      h += 'void mainImage( out vec4 c, in vec2 f );\n' + 'void st_assert( bool cond );\n' +
           'void st_assert( bool cond, int v );\n';
      h += '\nout vec4 shadertoy_out_color;\n' +
           'void st_assert( bool cond, int v ) {if(!cond){if(v==0)shadertoy_out_color.x=-1.0;else if(v==1)shadertoy_out_color.y=-1.0;else if(v==2)shadertoy_out_color.z=-1.0;else shadertoy_out_color.w=-1.0;}}\n' +
           'void st_assert( bool cond        ) {if(!cond)shadertoy_out_color.x=-1.0;}\n' +
           'void main( void ){shadertoy_out_color = vec4(1.0,1.0,1.0,1.0);vec4 color = vec4(0.0,0.0,0.0,1.0);' +
           'mainImage( color, gl_FragCoord.xy );' +
           'if(shadertoy_out_color.x<0.0) color=vec4(1.0,0.0,0.0,1.0);if(shadertoy_out_color.y<0.0) color=vec4(0.0,1.0,0.0,1.0);' +
           'if(shadertoy_out_color.z<0.0) color=vec4(0.0,0.0,1.0,1.0);if(shadertoy_out_color.w<0.0) color=vec4(1.0,1.0,0.0,1.0);' +
           'shadertoy_out_color = vec4(color.xyz,1.0);}\n';
      return h;
    }
    for (let c = 0; c < 4; c++) h += `uniform ${samplerOf(s, c)} iChannel${c};\n`;
    if (s === 5) {
      // Cube A's main: the ray through this fragment from the face's four corners (unCorners[4] the
      // origin), as the site's cubemap pass sets them for each face
      return h + 'void mainCubemap( out vec4 c, in vec2 f, in vec3 ro, in vec3 rd );\n' +
             '\nuniform vec4 unViewport;\nuniform vec3 unCorners[5];\n' + '\nout vec4 outColor;\n' +
             '\nvoid main( void )\n{vec4 color = vec4(0.0,0.0,0.0,1.0);vec3 ro = unCorners[4];' +
             'vec2 uv = (gl_FragCoord.xy - unViewport.xy)/unViewport.zw;' +
             'vec3 rd = normalize( mix( mix( unCorners[0], unCorners[1], uv.x ),mix( unCorners[3], unCorners[2], uv.x ), uv.y ) - ro);' +
             'mainCubemap( color, gl_FragCoord.xy-unViewport.xy, ro, rd );outColor = color; }\n';
    }
    return h + 'void mainImage( out vec4 c,  in vec2 f );\n' + '\nout vec4 outColor;\n' +
           '\nvoid main( void )\n{vec4 color = vec4(0.0,0.0,0.0,1.0);mainImage( color, gl_FragCoord.xy );outColor = color; }\n';
  };
  const progs = [];
  for (let s = 0; s < 6; s++) {
    if (!slots[s]) { progs.push(null); continue; }
    const fs = compile(gl.FRAGMENT_SHADER, PREFIX + headerOf(s) + (hasCommon ? common + '\n' : '') + slots[s].code, NAMES[s]);
    const prog = gl.createProgram();
    gl.attachShader(prog, vs);
    gl.attachShader(prog, fs);
    gl.bindAttribLocation(prog, 0, 'pos');
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`${NAMES[s]}: ${gl.getProgramInfoLog(prog)}`);
    const u = (n) => gl.getUniformLocation(prog, n);
    progs.push({ prog, u: {
      res: u('iResolution'), time: u('iTime'), ctime: u('iChannelTime'), mouse: u('iMouse'), date: u('iDate'),
      rate: u('iSampleRate'), cres: u('iChannelResolution'), frame: u('iFrame'), delta: u('iTimeDelta'),
      fps: u('iFrameRate'), ch: [0, 1, 2, 3].map((c) => u(`iChannel${c}`)),
      viewport: u('unViewport'), corners: u('unCorners') } });
  }

  // ---- targets: buffers as RGBA32F pairs, the Image pass into RGBA8 read back at the end ---------------
  const makeTarget = (internal, format, type) => {
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texImage2D(gl.TEXTURE_2D, 0, internal, W, H, 0, format, type, null);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('incomplete target');
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    return { tex, fbo };
  };
  const buf = [0, 1, 2, 3].map((b) => (slots[b] ? [makeTarget(gl.RGBA32F, gl.RGBA, gl.FLOAT),
                                                   makeTarget(gl.RGBA32F, gl.RGBA, gl.FLOAT)] : null));
  const cur = [0, 0, 0, 0];
  const image = makeTarget(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE);
  // Cube A: two half-float cubemaps of 1024 a face (the site's), a framebuffer per face, cleared
  const CUBE = 1024;
  const makeCube = () => {
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_CUBE_MAP, tex);
    gl.texStorage2D(gl.TEXTURE_CUBE_MAP, 1 + Math.floor(Math.log2(CUBE)), gl.RGBA16F, CUBE, CUBE);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    const fbos = [];
    for (let f = 0; f < 6; f++) {
      const fbo = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_CUBE_MAP_POSITIVE_X + f, tex, 0);
      if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('incomplete cube face');
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
      fbos.push(fbo);
    }
    return { tex, fbos };
  };
  const cube = cubePass ? [makeCube(), makeCube()] : null;
  let cubeCur = 0;
  // Each face's corners from the GL spec's cubemap table (sc, tc per major axis, inverted): the ray for
  // the face's texel (s, t) in [0,1]^2 is the direction a samplerCube maps to that texel, so what Cube A
  // draws for rd is what texture(iChannel, rd) reads. Corners at (s,t) = (0,0) (1,0) (1,1) (0,1).
  const faceDir = [
    (a, b) => [1, -b, -a], (a, b) => [-1, -b, a], (a, b) => [a, 1, b],
    (a, b) => [a, -1, -b], (a, b) => [a, -b, 1], (a, b) => [-a, -b, -1],
  ];
  const cornersOf = (f) => new Float32Array([...faceDir[f](-1, -1), ...faceDir[f](1, -1), ...faceDir[f](1, 1),
                                             ...faceDir[f](-1, 1), 0, 0, 0]);

  const vbo = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);

  const drawPass = (s, i, fbo, face) => {
    const p = progs[s];
    gl.useProgram(p.prog);
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    const VW = s === 5 ? CUBE : W, VH = s === 5 ? CUBE : H;
    gl.viewport(0, 0, VW, VH);
    if (s === 5) {
      gl.uniform4f(p.u.viewport, 0, 0, CUBE, CUBE);
      gl.uniform3fv(p.u.corners, cornersOf(face));
    }
    const t = spec.time0 + i / spec.fps;
    gl.uniform3f(p.u.res, VW, VH, 1);
    gl.uniform1f(p.u.time, t);
    gl.uniform1f(p.u.delta, 1 / spec.fps);
    gl.uniform1f(p.u.fps, spec.fps);
    gl.uniform1i(p.u.frame, i);
    gl.uniform1fv(p.u.ctime, new Float32Array(4));
    gl.uniform1f(p.u.rate, 44100);
    gl.uniform4f(p.u.date, 2000, 0, 1, t % 86400);
    const m = spec.mouse;
    if (m) gl.uniform4f(p.u.mouse, m[0], m[1], Math.abs(m[2]), (i === 0 ? 1 : -1) * Math.abs(m[3]));
    else gl.uniform4f(p.u.mouse, 0, 0, 0, 0);
    const cres = new Float32Array(12);
    for (let c = 0; c < 4; c++) {
      const tx = textures[s][c];
      gl.activeTexture(gl.TEXTURE0 + c);
      gl.uniform1i(p.u.ch[c], c);
      if (!tx) {
        gl.bindTexture(gl.TEXTURE_2D, null);
        continue;
      }
      if (tx.kind === 'buffer') {
        // the newest contents: this frame's for a buffer drawn before, the last frame's otherwise
        gl.bindTexture(gl.TEXTURE_2D, buf[tx.buffer][cur[tx.buffer]].tex);
        const f = tx.sampler.filter || 'linear';
        const lin = f !== 'nearest' && floatLinear;
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, lin ? gl.LINEAR : gl.NEAREST);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, lin ? gl.LINEAR : gl.NEAREST);
        const wrap = tx.sampler.wrap === 'repeat' ? gl.REPEAT : gl.CLAMP_TO_EDGE;
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap);
        cres.set([W, H, 1], c * 3);
      } else if (tx.kind === 'cubeA') {
        // its newest faces: this frame's for a pass drawn after it, the last frame's for itself
        gl.bindTexture(gl.TEXTURE_CUBE_MAP, cube[cubeCur].tex);
        const f = tx.sampler.filter || 'linear';
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, f === 'nearest' ? gl.NEAREST : gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER,
                         f === 'nearest' ? gl.NEAREST : f === 'mipmap' ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR);
        cres.set([CUBE, CUBE, 1], c * 3);
      } else {
        gl.bindTexture(tx.cube ? gl.TEXTURE_CUBE_MAP : gl.TEXTURE_2D, tx.tex);
        cres.set(tx.res, c * 3);
      }
    }
    gl.uniform3fv(p.u.cres, cres);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    // unbind so that no texture is both read and drawn into by the next pass
    for (let c = 0; c < 4; c++) {
      gl.activeTexture(gl.TEXTURE0 + c);
      gl.bindTexture(gl.TEXTURE_2D, null);
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, null);
    }
  };

  const last = spec.frame;
  for (let i = 0; i <= last; i++) {
    for (const b of order) {
      drawPass(b, i, buf[b][1 - cur[b]].fbo);
      cur[b] = 1 - cur[b];
    }
    if (cube) {
      for (let f = 0; f < 6; f++) drawPass(5, i, cube[1 - cubeCur].fbos[f], f);
      cubeCur = 1 - cubeCur;
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, cube[cubeCur].tex);
      gl.generateMipmap(gl.TEXTURE_CUBE_MAP); // for a reader that asks for mipmaps
      gl.bindTexture(gl.TEXTURE_CUBE_MAP, null);
    }
    if (i === last) drawPass(4, i, image.fbo);
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, image.fbo);
  const px = new Uint8Array(W * H * 4);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const err = gl.getError();
  if (err) throw new Error(`GL error 0x${err.toString(16)}`);
  // top row first, as PNG wants
  const out = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) out.set(px.subarray((H - 1 - y) * W * 4, (H - y) * W * 4), y * W * 4);
  let bin = '';
  for (let k = 0; k < out.length; k += 0x8000) bin += String.fromCharCode.apply(null, out.subarray(k, k + 0x8000));
  return { rgba: btoa(bin), renderer };
};

// The site's sound pass (effect.js with WebGL2): its prefix, MakeHeader_Sound with four unused channels,
// Common and a newline, then the pass's code; a block of 512x512 samples drawn into an RGBA8 target,
// each value packed as the low and high byte of floor((0.5+0.5*y)*65536), read back as lo + 256*hi.
// Returns samples 0 .. n-1 (n up to one block) as the site's 16-bit codes u - 32768, interleaved
// left/right little-endian int16, base64.
window.iksSound = async function (spec) {
  const N = 512;
  // the site plays 180 s; it draws them a block of 512x512 samples at a time
  if (!(Number.isInteger(spec.n) && spec.n > 0 && spec.n <= 180 * 44100)) throw new Error('iksSound: n must be 1 .. 7938000');
  let common = null, sound = null;
  for (const p of spec.toy.renderpass) {
    if (p.type === 'common') common = p.code;
    else if (p.type === 'sound') sound = p;
  }
  if (!sound) throw new Error('the toy has no sound pass');
  if ((sound.inputs || []).length) throw new Error('a sound pass with inputs is not drawn by this harness');
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  if (!gl) throw new Error('no WebGL2 in this browser');
  const prefix = '#version 300 es\n#ifdef GL_ES\nprecision highp float;\nprecision highp int;\n' +
                 'precision mediump sampler3D;\n#endif\n';
  let header = '#define HW_PERFORMANCE 1\n' +
               'uniform float     iChannelTime[4];\n' +
               'uniform float     iTimeOffset;\n' +
               'uniform int       iSampleOffset;\n' +
               'uniform vec4      iDate;\n' +
               'uniform float     iSampleRate;\n' +
               'uniform vec3      iChannelResolution[4];\n';
  for (let i = 0; i < 4; i++) header += `uniform sampler2D iChannel${i};\n`;
  header += '\nvec2 mainSound( in int samp, float time );\n';
  header += 'out vec4 outColor; void main(){' +
            'float t = iTimeOffset + ((gl_FragCoord.x-0.5) + (gl_FragCoord.y-0.5)*512.0)/iSampleRate;' +
            'int   s = iSampleOffset + int(gl_FragCoord.y-0.2)*512 + int(gl_FragCoord.x-0.2);' +
            'vec2 y = mainSound( s, t );' +
            'vec2 v  = floor((0.5+0.5*y)*65536.0);' +
            'vec2 vl =   mod(v,256.0)/255.0;' +
            'vec2 vh = floor(v/256.0)/255.0;' +
            'outColor = vec4(vl.x,vh.x,vl.y,vh.y);' +
            '}\n';
  const fsText = prefix + header + (common !== null ? common + '\n' : '') + sound.code;
  const compile = (type, text) => {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, text);
    gl.compileShader(sh);
    if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(`Sound: ${gl.getShaderInfoLog(sh)}`);
    return sh;
  };
  const prog = gl.createProgram();
  gl.attachShader(prog, compile(gl.VERTEX_SHADER, prefix + 'layout(location = 0) in vec2 pos; void main() { gl_Position = vec4(pos.xy,0.0,1.0); }'));
  gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, fsText));
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`Sound: ${gl.getProgramInfoLog(prog)}`);
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, N, N, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
  const fbo = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  const vbo = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.viewport(0, 0, N, N);
  gl.useProgram(prog);
  gl.uniform1f(gl.getUniformLocation(prog, 'iSampleRate'), 44100);
  const px = new Uint8Array(N * N * 4);
  const out = new Int16Array(2 * spec.n);
  for (let off = 0; off < spec.n; off += N * N) {
    // effect.js's offsets for block off / (N * N): a double, rounded to float by uniform1f
    gl.uniform1f(gl.getUniformLocation(prog, 'iTimeOffset'), off / 44100);
    gl.uniform1i(gl.getUniformLocation(prog, 'iSampleOffset'), off);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.readPixels(0, 0, N, N, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const err = gl.getError();
    if (err) throw new Error(`GL error 0x${err.toString(16)}`);
    for (let i = 0; i < N * N && off + i < spec.n; i++) {
      out[2 * (off + i)] = px[4 * i] + 256 * px[4 * i + 1] - 32768;
      out[2 * (off + i) + 1] = px[4 * i + 2] + 256 * px[4 * i + 3] - 32768;
    }
  }
  const bytes = new Uint8Array(out.buffer);
  let bin = '';
  for (let k = 0; k < bytes.length; k += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(k, k + 0x8000));
  return { pcm: btoa(bin) };
};
