// Panes and trails drawn as soap film. Every pane is one instance of one rounded mesh (pane-mesh.js)
// in one instanced call; each trail is one call over its ribbon (trail.js). Both share one fragment
// shader: the film's thickness at the fragment (the seed's drifting 400 ± 300 nm pattern, offset by
// the pane's colour choice), the view angle from the surface's own normal, and the film's colour
// looked up in the interference table (thin-film.js). The film reflects the room's light in that
// colour and lets the rest through, more of it where it is seen face on (Fresnel-weighted
// translucency), blended premultiplied. Panes wobble: three sines, 1, 2.5 and 5 Hz, at most 2 cm
// at their middle and nothing at their rim, a third as much facing down.
//
// A test switch (`test({unlit, still, thickness})`, never on by default) draws the table's colour
// itself, unlit and unblended, with time and wobble held still and, when `thickness` is a number,
// one thickness everywhere: what the bubbles check holds against its own spectral computation.

import { linkProgram } from "../../viewer/program.js";
import { paneMesh } from "./pane-mesh.js";
import { filmTable, srgb, tableLookup } from "./thin-film.js";
import { vertexFloats } from "./trail.js";

/// Floats per pane instance: its matrix in the project's frame, its size as the mesh's scale (16),
/// one more uniform scale, thickness offset (nm), animation phase (s) and fade (0 gone, 1 shown).
export const paneFloats = 20;

const paneVertexShader = `#version 300 es
layout(location = 0) in vec4 corner;    // x, y (m), u, v
layout(location = 1) in vec4 column0;
layout(location = 2) in vec4 column1;
layout(location = 3) in vec4 column2;
layout(location = 4) in vec4 column3;
layout(location = 5) in vec4 style;     // scale, thickness offset, phase, fade
uniform mat4 viewProjection;
uniform mat4 frameToSession;
uniform float time;
uniform float wobble;
out vec3 place;
out vec2 surface;
out vec2 film;                          // thickness offset, fade
out float phase;
void main() {
  mat4 model = frameToSession * mat4(column0, column1, column2, column3);
  float t = time + style.z;
  vec2 uv = corner.zw;
  float pinned = 16.0 * uv.x * (1.0 - uv.x) * uv.y * (1.0 - uv.y);
  float facingDown = max(-normalize(model[2].xyz).y, 0.0);
  float bend = 0.02 * wobble * pinned * mix(1.0, 1.0 / 3.0, facingDown) * (
    0.5 * sin(6.2831853 * 1.0 * t + 3.0 * uv.x) + 0.3 * sin(6.2831853 * 2.5 * t + 5.0 * uv.y)
    + 0.2 * sin(6.2831853 * 5.0 * t + 7.0 * (uv.x + uv.y)));
  vec4 world = model * vec4(corner.xy * style.x, bend, 1.0);
  place = world.xyz;
  surface = uv;
  film = style.yw;
  phase = style.z;
  gl_Position = viewProjection * world;
}`;

const trailVertexShader = `#version 300 es
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 along;     // distance along the path (m), across (0 or 1)
uniform mat4 viewProjection;
uniform mat4 frameToSession;
uniform float thicknessOffset;
out vec3 place;
out vec2 surface;
out vec2 film;
out float phase;
void main() {
  vec4 world = frameToSession * vec4(position, 1.0);
  place = world.xyz;
  surface = vec2(along.x / 0.6, along.y);
  film = vec2(thicknessOffset, 1.0);
  phase = 0.0;
  gl_Position = viewProjection * world;
}`;

const fragmentShader = `#version 300 es
precision highp float;
uniform sampler2D table;
uniform vec3 eye;
uniform float time;
uniform vec3 light;
uniform float intensity;
uniform bool unlit;
uniform float fixedThickness;           // < 0: the drifting pattern
in vec3 place;
in vec2 surface;
in vec2 film;
in float phase;
out vec4 colour;
${tableLookup}
${srgb}
void main() {
  float t = time + phase;
  float thickness = fixedThickness >= 0.0 ? fixedThickness
    : 400.0 + 200.0 * sin(6.283 * surface.x + 0.5 * t) * cos(6.283 * surface.y + 0.7 * t)
      + 100.0 * sin(3.14 * (surface.x + surface.y) + 0.3 * t) + film.x;
  vec3 normal = normalize(cross(dFdx(place), dFdy(place)));
  vec3 toEye = normalize(eye - place);
  float cosAngle = abs(dot(normal, toEye));
  vec3 tabled = texture(table, filmTableCoordinate(thickness, cosAngle)).rgb;
  if (unlit) { colour = vec4(tabled, 1.0); return; }
  // Reflected: the room's light in the film's colour (its reflectance is a few per cent: brought
  // up to what a bubble shows against a room), and a glint where the light's mirror image is.
  vec3 reflected = decode(tabled) * intensity * 4.0;
  vec3 halfway = normalize(normalize(light) + toEye);
  reflected += vec3(0.35) * intensity * pow(abs(dot(normal, halfway)), 80.0);
  float fresnel = pow(1.0 - cosAngle, 2.5);
  float opacity = mix(0.06, 0.45, fresnel) * film.y;
  colour = vec4(encode(min(reflected * film.y, vec3(1.0))), opacity);
}`;

const uniformNames = ["viewProjection", "frameToSession", "time", "wobble", "table", "eye", "light", "intensity", "unlit", "fixedThickness", "thicknessOffset"];

/// The film renderer on `gl` (WebGL 2). `panes(data)` sets every pane (`paneFloats` a pane);
/// `trail(t)` adds a trail's ribbon and returns {update(change), remove()}; `draw(view,
/// frameToSession, {time, light, eye})` draws them all and returns the draw calls it made.
export function filmRenderer(gl) {
  const table = filmTable(gl);
  const panePass = linkProgram(gl, paneVertexShader, fragmentShader, [], uniformNames);
  const trailPass = linkProgram(gl, trailVertexShader, fragmentShader, [], uniformNames);
  const mesh = paneMesh(), paneVao = gl.createVertexArray(), meshBuffer = gl.createBuffer(), indexBuffer = gl.createBuffer();
  const instanceBuffer = gl.createBuffer();
  gl.bindVertexArray(paneVao);
  gl.bindBuffer(gl.ARRAY_BUFFER, meshBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, mesh.vertices, gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
  gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.indices, gl.STATIC_DRAW);
  gl.bindBuffer(gl.ARRAY_BUFFER, instanceBuffer);
  for (let location = 1; location <= 5; location++) {
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, 4, gl.FLOAT, false, paneFloats * 4, (location - 1) * 16);
    gl.vertexAttribDivisor(location, 1);
  }
  gl.bindVertexArray(null);
  const trails = new Set();
  let paneCount = 0, testing = null;

  function panes(data) {
    gl.bindBuffer(gl.ARRAY_BUFFER, instanceBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    paneCount = data.length / paneFloats;
  }

  /// A trail's ribbon on the GPU: its buffers made at their full size once, then only the slices a
  /// change names written (`bufferSubData`), a few dozen bytes a frame.
  function trail(ribbon, thicknessOffset = 0) {
    const vao = gl.createVertexArray(), vertices = gl.createBuffer(), indices = gl.createBuffer();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, vertices);
    gl.bufferData(gl.ARRAY_BUFFER, ribbon.vertices, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, vertexFloats * 4, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, vertexFloats * 4, 12);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indices);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, ribbon.indices, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    const entry = {
      vao, ribbon, thicknessOffset,
      update({ first, count }) {
        const from = first * 2 * vertexFloats, to = (first + count) * 2 * vertexFloats;
        gl.bindBuffer(gl.ARRAY_BUFFER, vertices);
        gl.bufferSubData(gl.ARRAY_BUFFER, from * 4, ribbon.vertices, from, to - from);
      },
      remove() {
        if (!trails.delete(entry)) return;  // removed already
        gl.deleteVertexArray(vao); gl.deleteBuffer(vertices); gl.deleteBuffer(indices);
      },
    };
    trails.add(entry);
    return entry;
  }

  function setUniforms(u, view, frameToSession, { time, light, eye }) {
    gl.uniformMatrix4fv(u.viewProjection, false, view.viewProjection);
    gl.uniformMatrix4fv(u.frameToSession, false, frameToSession);
    gl.uniform1f(u.time, testing && testing.still ? 0 : time);
    gl.uniform1f(u.wobble, testing && testing.still ? 0 : 1);
    gl.uniform1i(u.table, 0);
    gl.uniform3fv(u.eye, eye);
    gl.uniform3fv(u.light, light.direction);
    gl.uniform1f(u.intensity, light.intensity);
    gl.uniform1i(u.unlit, testing && testing.unlit ? 1 : 0);
    gl.uniform1f(u.fixedThickness, testing && typeof testing.thickness === "number" ? testing.thickness : -1);
  }

  function draw(view, frameToSession, scene) {
    let calls = 0;
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, table);
    gl.enable(gl.DEPTH_TEST);
    gl.depthMask(false);
    if (testing && testing.unlit) gl.disable(gl.BLEND);
    else { gl.enable(gl.BLEND); gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA); }
    if (paneCount) {
      gl.useProgram(panePass.program);
      setUniforms(panePass.u, view, frameToSession, scene);
      gl.bindVertexArray(paneVao);
      gl.drawElementsInstanced(gl.TRIANGLES, mesh.indices.length, gl.UNSIGNED_SHORT, 0, paneCount);
      calls++;
    }
    if (trails.size) {
      gl.useProgram(trailPass.program);
      setUniforms(trailPass.u, view, frameToSession, scene);
      for (const { vao, ribbon, thicknessOffset } of trails) {
        if (!ribbon.indexCount()) continue;
        gl.uniform1f(trailPass.u.thicknessOffset, thicknessOffset);
        gl.bindVertexArray(vao);
        gl.drawElements(gl.TRIANGLES, ribbon.indexCount(), gl.UNSIGNED_SHORT, 0);
        calls++;
      }
    }
    gl.bindVertexArray(null);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
    gl.disable(gl.DEPTH_TEST);
    return calls;
  }

  function dispose() {
    for (const entry of [...trails]) entry.remove();
    for (const buffer of [meshBuffer, indexBuffer, instanceBuffer]) gl.deleteBuffer(buffer);
    gl.deleteVertexArray(paneVao);
    gl.deleteProgram(panePass.program);
    gl.deleteProgram(trailPass.program);
    gl.deleteTexture(table);
  }

  return { panes, trail, draw, dispose, test: (switches) => { testing = switches || null; } };
}
