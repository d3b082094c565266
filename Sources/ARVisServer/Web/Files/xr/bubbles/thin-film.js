// A soap film's colour, by interference: a film of index 1.33 in air, of thickness d, seen at an
// angle θ reflects R(λ) = ½ (Rₛ + Rₚ), each the Airy sum of every reflection inside the film,
//   R = |r₁₂ + r₂₃ e^{iδ}|² / |1 + r₁₂ r₂₃ e^{iδ}|² = 2 r² (1 − cos δ) / (1 − 2 r² cos δ + r⁴),
// with r = r₁₂ = −r₂₃ the exact Fresnel amplitude at the air→film face for that polarisation and
// δ = 4π n d cos θₜ / λ. That spectrum, weighed by D65 and the CIE 1931 observer (spectrum.js), is
// the film's colour in linear sRGB, clipped to [0, 1].
//
// The sum runs over 81 wavelengths, too much for every fragment of every pane on a phone (or on
// the software GPU the checks run), so a fragment shader computes it once per session into a
// table, 512 thicknesses (0 to 1 000 nm, 2 nm apart) by 64 view angles (cos θ from 0 to 1), stored
// sRGB-encoded in 8 bits a channel; the panes look their colour up in it by thickness and angle
// (film-renderer.js). docs/webxr.md, "Bubbles", says how close it is to the reference.

import { linkProgram } from "../../viewer/program.js";
import { firstWavelength, sampleCount, spectralWeights, wavelengthStep } from "./spectrum.js";

/// The film's refractive index (soapy water), and the thickest film the table holds (nm).
export const filmIndex = 1.33;
export const tableThickness = 1000;
/// The table's texels: thicknesses by view angles.
export const tableSize = [512, 64];

/// sRGB's transfer function both ways (IEC 61966-2-1), GLSL for the table and the panes' shader.
export const srgb = `
vec3 decode(vec3 c) { return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c)); }
vec3 encode(vec3 c) { return mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c)); }`;

// One triangle covering the viewport.
const vertexShader = `#version 300 es
void main() {
  gl_Position = vec4(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0, 0.0, 1.0);
}`;

const fragmentShader = `#version 300 es
precision highp float;
uniform vec3 weights[${sampleCount}];
uniform vec2 size;
uniform float thickest;
uniform float index;
out vec4 colour;

// The Airy sum's reflectance for a face whose Fresnel amplitude is r, at phase cos δ.
float airy(float r, float cosDelta) {
  float r2 = r * r;
  return 2.0 * r2 * (1.0 - cosDelta) / max(1.0 - 2.0 * r2 * cosDelta + r2 * r2, 1e-6);
}

${srgb}
void main() {
  float thickness = (gl_FragCoord.x - 0.5) / (size.x - 1.0) * thickest;
  float cosI = (gl_FragCoord.y - 0.5) / (size.y - 1.0);
  float sinT = sqrt(max(1.0 - cosI * cosI, 0.0)) / index;
  float cosT = sqrt(1.0 - sinT * sinT);
  float rs = (cosI - index * cosT) / (cosI + index * cosT);
  float rp = (index * cosI - cosT) / (index * cosI + cosT);
  float path = 4.0 * 3.14159265358979 * index * thickness * cosT;
  vec3 sum = vec3(0.0);
  for (int k = 0; k < ${sampleCount}; k++) {
    // The phase reduced to one turn first: some phones' cos() loses precision past a few turns.
    float cosDelta = cos(mod(path / (${firstWavelength.toFixed(1)} + ${wavelengthStep.toFixed(1)} * float(k)), 6.28318530718));
    sum += 0.5 * (airy(rs, cosDelta) + airy(rp, cosDelta)) * weights[k];
  }
  colour = vec4(encode(clamp(sum, 0.0, 1.0)), 1.0);
}`;

/// The film's colour table on `gl`: a TEXTURE_2D (RGBA8, sRGB-encoded, linear filtering, clamped)
/// whose s runs over thickness, 0 to `tableThickness` nm at the first and last texels' centres,
/// and t over cos θ, 0 to 1 likewise. Leaves the framebuffer, viewport and program as it found
/// them apart from TEXTURE_2D's binding on the active unit.
export function filmTable(gl) {
  const [width, height] = tableSize;
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
  for (const [name, value] of [
    [gl.TEXTURE_MIN_FILTER, gl.LINEAR], [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
    [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE], [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
  ]) gl.texParameteri(gl.TEXTURE_2D, name, value);
  const { program, u } = linkProgram(gl, vertexShader, fragmentShader, [], ["weights", "size", "thickest", "index"]);
  const framebuffer = gl.createFramebuffer();
  const before = {
    framebuffer: gl.getParameter(gl.FRAMEBUFFER_BINDING), viewport: gl.getParameter(gl.VIEWPORT),
    program: gl.getParameter(gl.CURRENT_PROGRAM), blend: gl.isEnabled(gl.BLEND), depth: gl.isEnabled(gl.DEPTH_TEST),
  };
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  gl.viewport(0, 0, width, height);
  gl.disable(gl.BLEND);
  gl.disable(gl.DEPTH_TEST);
  gl.useProgram(program);
  gl.uniform3fv(u.weights, spectralWeights());
  gl.uniform2f(u.size, width, height);
  gl.uniform1f(u.thickest, tableThickness);
  gl.uniform1f(u.index, filmIndex);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.bindFramebuffer(gl.FRAMEBUFFER, before.framebuffer);
  gl.viewport(...before.viewport);
  gl.useProgram(before.program);
  if (before.blend) gl.enable(gl.BLEND);
  if (before.depth) gl.enable(gl.DEPTH_TEST);
  gl.deleteFramebuffer(framebuffer);
  gl.deleteProgram(program);
  return texture;
}

/// The texture coordinates of a film `thickness` nm thick seen at `cosAngle` in the table: GLSL
/// for the panes' shader, the same mapping `filmTable` draws.
export const tableLookup = `
vec2 filmTableCoordinate(float thickness, float cosAngle) {
  vec2 texels = vec2(${tableSize[0].toFixed(1)}, ${tableSize[1].toFixed(1)});
  vec2 at = vec2(clamp(thickness / ${tableThickness.toFixed(1)}, 0.0, 1.0), clamp(cosAngle, 0.0, 1.0));
  return (at * (texels - 1.0) + 0.5) / texels;
}`;
