// ARVis orbit viewer: draws a GLB with WebGL 2, no library. Orbit (drag), pan (shift-drag, right
// drag or two fingers), zoom (wheel or pinch), reset (double-click, double-tap, the button or 0).
// The first view is the server thumbnail's: azimuth 30°, elevation 20°, 30° field of view, the
// bounding sphere of the model's box filling the height.
"use strict";
(function () {
  const canvas = document.getElementById("view");
  const poster = document.querySelector(".poster");
  const status = document.getElementById("status");
  const state = { frames: 0, ready: false, error: null };
  window.arvisViewer = state;
  const say = (text) => { if (status) status.textContent = text; };
  const fail = (text) => { state.error = text; say(text); };
  if (!canvas) return;
  const gl = canvas.getContext("webgl2", { antialias: true, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: true });
  if (!gl) { fail("This browser has no WebGL 2: the picture above is the model."); return; }

  // --- 4×4 matrices, column-major ---------------------------------------------------------------
  const identity = () => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  function multiply(a, b) {
    const out = new Float32Array(16);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = sum;
    }
    return out;
  }
  function fromTRS(t, q, s) {
    const [x, y, z, w] = q;
    const m = new Float32Array([
      (1 - 2 * (y * y + z * z)) * s[0], (2 * (x * y + z * w)) * s[0], (2 * (x * z - y * w)) * s[0], 0,
      (2 * (x * y - z * w)) * s[1], (1 - 2 * (x * x + z * z)) * s[1], (2 * (y * z + x * w)) * s[1], 0,
      (2 * (x * z + y * w)) * s[2], (2 * (y * z - x * w)) * s[2], (1 - 2 * (x * x + y * y)) * s[2], 0,
      t[0], t[1], t[2], 1]);
    return m;
  }
  function transformPoint(m, p) {
    return [m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13], m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]];
  }
  function normalMatrix(m) {
    // Inverse transpose of the upper 3×3, as a mat3 (column-major).
    const a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9], i = m[10];
    const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const det = a * A + b * B + c * C || 1;
    return new Float32Array([A / det, B / det, C / det, -(b * i - c * h) / det, (a * i - c * g) / det, -(a * h - b * g) / det,
      (b * f - c * e) / det, -(a * f - c * d) / det, (a * e - b * d) / det]);
  }
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  function lookAt(eye, target, up) {
    const f = norm(sub(target, eye)), r = norm(cross(f, up)), u = cross(r, f);
    return new Float32Array([r[0], u[0], -f[0], 0, r[1], u[1], -f[1], 0, r[2], u[2], -f[2], 0, -dot(r, eye), -dot(u, eye), dot(f, eye), 1]);
  }
  function perspective(fovY, aspect, near, far) {
    const t = 1 / Math.tan(fovY / 2);
    return new Float32Array([t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0]);
  }

  // --- GLB -------------------------------------------------------------------------------------
  const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
  const TYPES = { 5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array };
  const NORMALIZE = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };
  function parseGLB(buffer) {
    const view = new DataView(buffer);
    if (view.getUint32(0, true) !== 0x46546c67) throw new Error("not a GLB file");
    let offset = 12, json = null, bin = null;
    while (offset + 8 <= view.byteLength) {
      const length = view.getUint32(offset, true), type = view.getUint32(offset + 4, true);
      if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, offset + 8, length)));
      else if (type === 0x004e4942) bin = new Uint8Array(buffer, offset + 8, length);
      offset += 8 + length;
    }
    if (!json) throw new Error("the GLB has no JSON chunk");
    return { json, bin };
  }
  function viewBytes(glb, index) {
    const v = glb.json.bufferViews[index];
    return { bytes: new Uint8Array(glb.bin.buffer, glb.bin.byteOffset + (v.byteOffset || 0), v.byteLength), stride: v.byteStride || 0 };
  }
  function accessor(glb, index, asFloat) {
    const a = glb.json.accessors[index], n = COMPONENTS[a.type], Type = TYPES[a.componentType];
    const out = asFloat ? new Float32Array(a.count * n) : new Uint32Array(a.count * n);
    if (a.bufferView === undefined) return { data: out, size: n, accessor: a };
    const { bytes, stride } = viewBytes(glb, a.bufferView);
    const step = stride || n * Type.BYTES_PER_ELEMENT, start = a.byteOffset || 0;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const read = { 5120: (o) => dv.getInt8(o), 5121: (o) => dv.getUint8(o), 5122: (o) => dv.getInt16(o, true), 5123: (o) => dv.getUint16(o, true),
      5125: (o) => dv.getUint32(o, true), 5126: (o) => dv.getFloat32(o, true) }[a.componentType];
    const scale = a.normalized && NORMALIZE[a.componentType] ? 1 / NORMALIZE[a.componentType] : 1;
    for (let i = 0; i < a.count; i++) for (let c = 0; c < n; c++) {
      const value = read(start + i * step + c * Type.BYTES_PER_ELEMENT);
      out[i * n + c] = scale === 1 ? value : Math.max(value * scale, -1);
    }
    return { data: out, size: n, accessor: a };
  }
  function nodeMatrix(node) {
    if (node.matrix) return new Float32Array(node.matrix);
    return fromTRS(node.translation || [0, 0, 0], node.rotation || [0, 0, 0, 1], node.scale || [1, 1, 1]);
  }

  // --- GL resources ----------------------------------------------------------------------------
  const VERTEX = `#version 300 es
  in vec3 aPosition; in vec3 aNormal; in vec2 aUV;
  uniform mat4 uModel, uView, uProjection; uniform mat3 uNormal;
  out vec3 vNormal; out vec2 vUV; out vec3 vView;
  void main() {
    vec4 view = uView * uModel * vec4(aPosition, 1.0);
    vNormal = mat3(uView) * (uNormal * aNormal); vUV = aUV; vView = view.xyz;
    gl_Position = uProjection * view;
  }`;
  const FRAGMENT = `#version 300 es
  precision highp float;
  in vec3 vNormal; in vec2 vUV; in vec3 vView;
  uniform vec4 uBase; uniform float uMetallic, uRoughness; uniform vec3 uEmissive; uniform int uAlphaMode; uniform float uCutoff;
  uniform bool uHasTexture, uHasNormals; uniform sampler2D uTexture;
  out vec4 color;
  vec3 toLinear(vec3 c) { return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c)); }
  vec3 toSRGB(vec3 c) { c = clamp(c, 0.0, 1.0); return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c)); }
  void main() {
    vec4 base = uBase;
    if (uHasTexture) { vec4 t = texture(uTexture, vUV); base *= vec4(toLinear(t.rgb), t.a); }
    if (uAlphaMode == 1) { if (base.a < uCutoff) discard; base.a = 1.0; } else if (uAlphaMode == 0) base.a = 1.0;
    // Without normals a face is lit flat, by the normal of its plane in view space.
    vec3 n = uHasNormals ? normalize(vNormal) : normalize(cross(dFdx(vView), dFdy(vView)));
    vec3 v = vec3(0.0, 0.0, 1.0);
    if (dot(n, v) < 0.0) n = -n;
    float metallic = clamp(uMetallic, 0.0, 1.0), roughness = clamp(uRoughness, 0.05, 1.0);
    vec3 albedo = base.rgb, f0 = mix(vec3(0.04), albedo, metallic);
    float a = roughness * roughness, shininess = max(2.0 / max(a * a, 1e-4) - 2.0, 1.0);
    vec3 result = albedo * (1.0 - metallic) * 0.22 + f0 * 0.2;
    vec3 lights[2] = vec3[2](normalize(vec3(-0.45, 0.75, 0.5)), normalize(vec3(0.7, -0.1, 0.7)));
    float strength[2] = float[2](0.95, 0.4);
    for (int i = 0; i < 2; i++) {
      float lambert = max(dot(n, lights[i]), 0.0);
      if (lambert <= 0.0) continue;
      vec3 h = normalize(lights[i] + v);
      float specular = pow(max(dot(n, h), 0.0), shininess) * (shininess + 8.0) / 25.132741;
      result += (albedo * (1.0 - metallic) + f0 * specular) * lambert * strength[i];
    }
    result += uEmissive;
    color = vec4(toSRGB(result) * base.a, base.a);
  }`;
  function compile(type, source) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  }
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.bindAttribLocation(program, 0, "aPosition");
  gl.bindAttribLocation(program, 1, "aNormal");
  gl.bindAttribLocation(program, 2, "aUV");
  gl.linkProgram(program);
  const u = {};
  for (const name of ["uModel", "uView", "uProjection", "uNormal", "uBase", "uMetallic", "uRoughness", "uEmissive", "uAlphaMode", "uCutoff", "uHasTexture", "uHasNormals", "uTexture"]) {
    u[name] = gl.getUniformLocation(program, name);
  }

  const draws = [];
  let low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  async function upload(glb) {
    const json = glb.json;
    const textures = await Promise.all((json.images || []).map(async (image) => {
      if (image.bufferView === undefined) return null;
      try {
        const bitmap = await createImageBitmap(new Blob([viewBytes(glb, image.bufferView).bytes], { type: image.mimeType || "image/png" }), { colorSpaceConversion: "none" });
        const texture = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, texture);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
        gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        return texture;
      } catch (error) { return null; }
    }));
    const materials = json.materials || [];
    const visit = (index, parent, depth) => {
      const node = json.nodes[index];
      if (!node || depth > 256) return;
      const world = multiply(parent, nodeMatrix(node));
      if (node.mesh !== undefined) for (const primitive of json.meshes[node.mesh].primitives) addPrimitive(glb, primitive, world, materials, textures);
      for (const child of node.children || []) visit(child, world, depth + 1);
    };
    const scene = (json.scenes || [])[json.scene || 0];
    const roots = scene ? scene.nodes || [] : (json.nodes || []).map((_, i) => i);
    for (const root of roots) visit(root, identity(), 0);
  }
  function addPrimitive(glb, primitive, world, materials, textures) {
    if ((primitive.mode ?? 4) !== 4 || primitive.attributes.POSITION === undefined) return;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const attribute = (location, index, size) => {
      const values = accessor(glb, index, true);
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, values.data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
      return values;
    };
    const positions = attribute(0, primitive.attributes.POSITION, 3);
    for (let i = 0; i < positions.data.length; i += 3) {
      const p = transformPoint(world, [positions.data[i], positions.data[i + 1], positions.data[i + 2]]);
      for (let k = 0; k < 3; k++) { low[k] = Math.min(low[k], p[k]); high[k] = Math.max(high[k], p[k]); }
    }
    const hasNormals = primitive.attributes.NORMAL !== undefined;
    if (hasNormals) attribute(1, primitive.attributes.NORMAL, 3); else gl.vertexAttrib3f(1, 0, 0, 1);
    if (primitive.attributes.TEXCOORD_0 !== undefined) attribute(2, primitive.attributes.TEXCOORD_0, 2); else gl.vertexAttrib2f(2, 0, 0);
    let count = positions.data.length / 3, indexType = null;
    if (primitive.indices !== undefined) {
      const indices = accessor(glb, primitive.indices, false);
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices.data, gl.STATIC_DRAW);
      count = indices.data.length;
      indexType = gl.UNSIGNED_INT;
    }
    const m = materials[primitive.material] || {};
    const pbr = m.pbrMetallicRoughness || {};
    const textureIndex = pbr.baseColorTexture ? ((glb.json.textures || [])[pbr.baseColorTexture.index] || {}).source : undefined;
    draws.push({ vao, count, indexType, world, normal: normalMatrix(world), hasNormals,
      base: pbr.baseColorFactor || [1, 1, 1, 1], metallic: pbr.metallicFactor ?? 1, roughness: pbr.roughnessFactor ?? 1,
      emissive: m.emissiveFactor || [0, 0, 0], alphaMode: { OPAQUE: 0, MASK: 1, BLEND: 2 }[m.alphaMode || "OPAQUE"] ?? 0,
      cutoff: m.alphaCutoff ?? 0.5, texture: textureIndex === undefined ? null : textures[textureIndex] });
  }

  // --- Camera and drawing ----------------------------------------------------------------------
  const FOV = 30 * Math.PI / 180;
  const camera = { azimuth: 0, elevation: 0, distance: 1, target: [0, 0, 0], radius: 1 };
  function reset() {
    const center = isFinite(low[0]) ? [(low[0] + high[0]) / 2, (low[1] + high[1]) / 2, (low[2] + high[2]) / 2] : [0, 0, 0];
    const radius = isFinite(low[0]) ? Math.hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]) / 2 || 1 : 1;
    Object.assign(camera, { azimuth: 30 * Math.PI / 180, elevation: 20 * Math.PI / 180, distance: 1.05 * radius / Math.sin(FOV / 2), target: center, radius });
    requestDraw();
  }
  let pending = false;
  function requestDraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
  function draw() {
    pending = false;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio)), height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    gl.viewport(0, 0, width, height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    const c = camera, ce = Math.cos(c.elevation);
    const eye = [c.target[0] + c.distance * Math.sin(c.azimuth) * ce, c.target[1] + c.distance * Math.sin(c.elevation), c.target[2] + c.distance * Math.cos(c.azimuth) * ce];
    gl.useProgram(program);
    gl.uniformMatrix4fv(u.uView, false, lookAt(eye, c.target, [0, 1, 0]));
    gl.uniformMatrix4fv(u.uProjection, false, perspective(FOV, width / height, Math.max(c.distance - c.radius * 1.5, c.distance / 1000), c.distance + c.radius * 1.5));
    gl.uniform1i(u.uTexture, 0);
    for (const d of draws) {
      gl.uniformMatrix4fv(u.uModel, false, d.world);
      gl.uniformMatrix3fv(u.uNormal, false, d.normal);
      gl.uniform4fv(u.uBase, d.base);
      gl.uniform1f(u.uMetallic, d.metallic);
      gl.uniform1f(u.uRoughness, d.roughness);
      gl.uniform3fv(u.uEmissive, d.emissive);
      gl.uniform1i(u.uAlphaMode, d.alphaMode);
      gl.uniform1f(u.uCutoff, d.cutoff);
      gl.uniform1i(u.uHasNormals, d.hasNormals ? 1 : 0);
      gl.uniform1i(u.uHasTexture, d.texture ? 1 : 0);
      if (d.texture) { gl.activeTexture(gl.TEXTURE0); gl.bindTexture(gl.TEXTURE_2D, d.texture); }
      gl.bindVertexArray(d.vao);
      if (d.indexType) gl.drawElements(gl.TRIANGLES, d.count, d.indexType, 0); else gl.drawArrays(gl.TRIANGLES, 0, d.count);
    }
    state.frames += 1;
    canvas.dataset.frames = String(state.frames);
    if (state.frames === 1 && poster) poster.hidden = true;
  }

  // --- Interaction -------------------------------------------------------------------------------
  const pointers = new Map();
  let lastTap = 0;
  const orbit = (dx, dy) => {
    camera.azimuth -= dx * 0.01;
    camera.elevation = Math.max(-1.55, Math.min(1.55, camera.elevation + dy * 0.01));
    requestDraw();
  };
  const zoom = (factor) => {
    camera.distance = Math.max(camera.radius * 0.05, Math.min(camera.radius * 50, camera.distance * factor));
    requestDraw();
  };
  const pan = (dx, dy) => {
    const scale = 2 * camera.distance * Math.tan(FOV / 2) / Math.max(1, canvas.clientHeight);
    const a = camera.azimuth, e = camera.elevation;
    const right = [Math.cos(a), 0, -Math.sin(a)], up = [-Math.sin(a) * Math.sin(e), Math.cos(e), -Math.cos(a) * Math.sin(e)];
    for (let k = 0; k < 3; k++) camera.target[k] += (-dx * right[k] + dy * up[k]) * scale;
    requestDraw();
  };
  canvas.addEventListener("pointerdown", (event) => {
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, button: event.button, shift: event.shiftKey || event.ctrlKey });
  });
  canvas.addEventListener("pointermove", (event) => {
    const previous = pointers.get(event.pointerId);
    if (!previous) return;
    const dx = event.clientX - previous.x, dy = event.clientY - previous.y;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const other = a === previous ? b : a;
      const before = Math.hypot(previous.x - other.x, previous.y - other.y), after = Math.hypot(event.clientX - other.x, event.clientY - other.y);
      if (before > 0 && after > 0) zoom(before / after);
      pan(dx / 2, dy / 2);
    } else if (previous.button === 2 || previous.shift) {
      pan(dx, dy);
    } else {
      orbit(dx, dy);
    }
    previous.x = event.clientX;
    previous.y = event.clientY;
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (event.type === "pointerup" && event.pointerType === "touch") {
      const now = performance.now();
      if (now - lastTap < 300) reset();
      lastTap = now;
    }
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  canvas.addEventListener("dblclick", reset);
  canvas.addEventListener("wheel", (event) => { event.preventDefault(); zoom(Math.exp(event.deltaY * 0.001)); }, { passive: false });
  canvas.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: () => orbit(-20, 0), ArrowRight: () => orbit(20, 0), ArrowUp: () => orbit(0, -20), ArrowDown: () => orbit(0, 20),
      "+": () => zoom(0.9), "=": () => zoom(0.9), "-": () => zoom(1.1), "0": reset, Home: reset };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
  const resetButton = document.getElementById("reset");
  if (resetButton) resetButton.addEventListener("click", reset);
  window.addEventListener("resize", requestDraw);

  // --- AR links: AR Quick Look on iOS, Scene Viewer on Android -----------------------------------
  const agent = navigator.userAgent;
  const isIOS = /iPhone|iPad|iPod/.test(agent) || (agent.includes("Macintosh") && navigator.maxTouchPoints > 1);
  const quickLook = document.getElementById("ar-ios"), sceneViewer = document.getElementById("ar-android");
  if (quickLook) quickLook.hidden = !isIOS;
  if (sceneViewer) sceneViewer.hidden = !/Android/.test(agent);

  // --- Load ------------------------------------------------------------------------------------
  say("Loading the model…");
  fetch(canvas.dataset.model, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error(response.status === 409 ? "the model is still being processed; reload in a moment" : "the server answered " + response.status);
      return response.arrayBuffer();
    })
    .then((buffer) => upload(parseGLB(buffer)))
    .then(() => { state.ready = true; say(""); reset(); })
    .catch((error) => fail("This model could not be shown: " + error.message));
})();
