// Trees drawn instanced: one species' low-poly model (the server's GLB, flat-shaded, its materials'
// colours baked into its vertices) in one vertex array, and one instance per tree — where it stands
// in the project's frame, its turn, its scale and whether it is shown in red (a tree in the way of a
// refused tap). One draw call per species; the instances are uploaded again only when the trees
// change, and the project's frame reaches the shader as one matrix.

import { accessor, materialOf, scenePrimitives } from "../../viewer/glb.js";
import { normalMatrix, transformPoint } from "../../viewer/matrix.js";
import { linkProgram } from "../../viewer/program.js";

const vertexShader = `#version 300 es
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 colour;
layout(location = 3) in vec4 placement;  // x, y, z in the project's frame; yaw, radians
layout(location = 4) in vec2 sizeAndTint; // scale; 1 for red
uniform mat4 viewProjection;
uniform mat4 frameToSession;
uniform vec3 light;
uniform float intensity;
out vec3 shade;
void main() {
  float c = cos(placement.w), s = sin(placement.w);
  vec3 p = position * sizeAndTint.x;
  vec3 turned = vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z);
  vec3 n = mat3(frameToSession) * vec3(c * normal.x + s * normal.z, normal.y, -s * normal.x + c * normal.z);
  float lambert = 0.45 + 0.55 * max(dot(normalize(n), light), 0.0);
  shade = mix(colour * lambert * intensity, vec3(0.92, 0.12, 0.1), sizeAndTint.y);
  gl_Position = viewProjection * frameToSession * vec4(turned + placement.xyz, 1.0);
}`;

const fragmentShader = `#version 300 es
precision mediump float;
in vec3 shade;
out vec4 colour;
void main() { colour = vec4(shade, 1.0); }`;

/// The model's triangles as one array of [x, y, z, nx, ny, nz, r, g, b] per vertex, from a parsed
/// GLB ({json, bin}): every triangle primitive of its scene, in its node's place, coloured with its
/// material's base colour (the server's tree models carry no textures).
export function bakeModel(glb) {
  const vertices = [];
  for (const { primitive, world } of scenePrimitives(glb.json)) {
    const positions = accessor(glb, primitive.attributes.POSITION, true).data;
    const normals = primitive.attributes.NORMAL === undefined ? null : accessor(glb, primitive.attributes.NORMAL, true).data;
    const indices = primitive.indices === undefined ? null : accessor(glb, primitive.indices, false).data;
    const count = indices ? indices.length : positions.length / 3, turn = normalMatrix(world);
    const base = materialOf(glb.json, primitive).base;
    for (let k = 0; k < count; k++) {
      const i = indices ? indices[k] : k;
      const p = transformPoint(world, [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]);
      const n = normals ? turnNormal(turn, normals, i) : [0, 1, 0];
      vertices.push(p[0], p[1], p[2], n[0], n[1], n[2], base[0], base[1], base[2]);
    }
  }
  return new Float32Array(vertices);
}

/// Normal `i` of `normals` turned by the 3 × 3 column-major `turn`, unit length.
function turnNormal(turn, normals, i) {
  const [x, y, z] = [normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]];
  const n = [turn[0] * x + turn[3] * y + turn[6] * z, turn[1] * x + turn[4] * y + turn[7] * z, turn[2] * x + turn[5] * y + turn[8] * z];
  const length = Math.hypot(n[0], n[1], n[2]) || 1;
  return [n[0] / length, n[1] / length, n[2] / length];
}

/// The floats of one instance: x, y, z, yaw, scale, tint.
export const instanceFloats = 6;

/// Packs `trees` ([{position: {x, y, z}, yaw, scale}]) as instances; `red`: ids shown in red.
export function packInstances(trees, red) {
  const data = new Float32Array(trees.length * instanceFloats);
  trees.forEach((tree, k) => {
    const p = tree.position;
    data.set([p.x, p.y || 0, p.z, tree.yaw || 0, tree.scale || 1, red.has(tree.id) ? 1 : 0], k * instanceFloats);
  });
  return data;
}

/// A renderer of instanced trees on `gl` (WebGL 2): `species(name, vertices)` gives a species its
/// model, `instances(name, data)` its trees; `draw(viewProjection, frameToSession, light)` draws
/// every species with trees in one call each and returns how many calls it made.
export function createTreeRenderer(gl) {
  const { program, u: uniforms } = linkProgram(gl, vertexShader, fragmentShader, ["position", "normal", "colour", "placement", "sizeAndTint"],
    ["viewProjection", "frameToSession", "light", "intensity"]);
  const kinds = new Map();

  function species(name, vertices) {
    const vao = gl.createVertexArray(), mesh = gl.createBuffer(), instances = gl.createBuffer();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, mesh);
    gl.bufferData(gl.ARRAY_BUFFER, vertices, gl.STATIC_DRAW);
    [[0, 0], [1, 3], [2, 6]].forEach(([location, offset]) => {
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 36, offset * 4);
    });
    gl.bindBuffer(gl.ARRAY_BUFFER, instances);
    [[3, 4, 0], [4, 2, 4]].forEach(([location, size, offset]) => {
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, instanceFloats * 4, offset * 4);
      gl.vertexAttribDivisor(location, 1);
    });
    gl.bindVertexArray(null);
    kinds.set(name, { vao, mesh, instances, vertexCount: vertices.length / 9, count: 0 });
  }

  function instances(name, data) {
    const kind = kinds.get(name);
    if (!kind) return;
    gl.bindBuffer(gl.ARRAY_BUFFER, kind.instances);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    kind.count = data.length / instanceFloats;
  }

  function draw(viewProjection, frameToSession, light) {
    let calls = 0;
    gl.useProgram(program);
    gl.uniformMatrix4fv(uniforms.viewProjection, false, viewProjection);
    gl.uniformMatrix4fv(uniforms.frameToSession, false, frameToSession);
    gl.uniform3fv(uniforms.light, light.direction);
    gl.uniform1f(uniforms.intensity, light.intensity);
    gl.enable(gl.DEPTH_TEST);
    for (const kind of kinds.values()) {
      if (!kind.count) continue;
      gl.bindVertexArray(kind.vao);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, kind.vertexCount, kind.count);
      calls++;
    }
    gl.bindVertexArray(null);
    gl.disable(gl.DEPTH_TEST);
    return calls;
  }

  function dispose() {
    for (const kind of kinds.values()) { gl.deleteVertexArray(kind.vao); gl.deleteBuffer(kind.mesh); gl.deleteBuffer(kind.instances); }
    kinds.clear();
    gl.deleteProgram(program);
  }

  return { species, instances, draw, dispose, has: (name) => kinds.has(name) };
}
