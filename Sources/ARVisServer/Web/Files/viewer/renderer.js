// The viewer's WebGL 2 side: the shader program, a GLB's primitives uploaded as vertex arrays and
// its images as textures, and a frame drawn from an orbit camera.

import { accessor, materialOf, scenePrimitives, viewBytes } from "./glb.js";
import { lookAt, multiply, normalMatrix, perspective, transformPoint } from "./matrix.js";
import { clipping, emptyBounds, extendBounds, eyeOf, fieldOfView } from "./orbit.js";
import { linkProgram } from "./program.js";
import { fragmentShader, vertexShader } from "./shaders.js";

const uniforms = ["uModel", "uView", "uProjection", "uNormal", "uBase", "uMetallic", "uRoughness", "uEmissive", "uAlphaMode", "uCutoff", "uHasTexture", "uHasNormals", "uTexture", "uLight"];

/// The GLB's images as textures (null for one that cannot be decoded).
function uploadTextures(gl, glb) {
  return Promise.all((glb.json.images || []).map(async (image) => {
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
}

/// A renderer on `gl`: {bounds (of what is uploaded), upload(glb), draw(camera, width, height),
/// render(view, projection, base, light), dispose()}.
export function createRenderer(gl) {
  const { program, u } = linkProgram(gl, vertexShader, fragmentShader, ["aPosition", "aNormal", "aUV"], uniforms);
  const draws = [];
  const bounds = emptyBounds();
  const owned = { buffers: [], textures: [] };
  const buffer = () => { const made = gl.createBuffer(); owned.buffers.push(made); return made; };

  /// One primitive as a vertex array (positions, normals, texture coordinates, indices) and what
  /// drawing it takes.
  function addPrimitive(glb, primitive, world, textures) {
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const attribute = (location, index, size) => {
      const values = accessor(glb, index, true);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer());
      gl.bufferData(gl.ARRAY_BUFFER, values.data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
      return values;
    };
    const positions = attribute(0, primitive.attributes.POSITION, 3);
    for (let i = 0; i < positions.data.length; i += 3) extendBounds(bounds, transformPoint(world, [positions.data[i], positions.data[i + 1], positions.data[i + 2]]));
    const hasNormals = primitive.attributes.NORMAL !== undefined;
    if (hasNormals) attribute(1, primitive.attributes.NORMAL, 3); else gl.vertexAttrib3f(1, 0, 0, 1);
    if (primitive.attributes.TEXCOORD_0 !== undefined) attribute(2, primitive.attributes.TEXCOORD_0, 2); else gl.vertexAttrib2f(2, 0, 0);
    let count = positions.data.length / 3, indexType = null;
    if (primitive.indices !== undefined) {
      const indices = accessor(glb, primitive.indices, false);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffer());
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices.data, gl.STATIC_DRAW);
      count = indices.data.length;
      indexType = gl.UNSIGNED_INT;
    }
    const material = materialOf(glb.json, primitive);
    draws.push({ vao, count, indexType, world, normal: normalMatrix(world), hasNormals, ...material,
      texture: material.image === undefined ? null : textures[material.image] });
  }

  async function upload(glb) {
    const textures = await uploadTextures(gl, glb);
    owned.textures.push(...textures.filter(Boolean));
    for (const { primitive, world } of scenePrimitives(glb.json)) addPrimitive(glb, primitive, world, textures);
  }

  function draw(camera, width, height) {
    gl.viewport(0, 0, width, height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    const [near, far] = clipping(camera);
    render(lookAt(eyeOf(camera), camera.target, [0, 1, 0]), perspective(fieldOfView, width / height, near, far));
  }

  /// Draws what is uploaded with the `view` and `projection` matrices into the bound framebuffer,
  /// moved by `base` (the AR view's placement of a model), lit `light` times as bright.
  function render(view, projection, base = null, light = 1) {
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(program);
    gl.uniformMatrix4fv(u.uView, false, view);
    gl.uniformMatrix4fv(u.uProjection, false, projection);
    gl.uniform1i(u.uTexture, 0);
    gl.uniform1f(u.uLight, light);
    for (const d of draws) {
      const world = base ? multiply(base, d.world) : d.world;
      gl.uniformMatrix4fv(u.uModel, false, world);
      gl.uniformMatrix3fv(u.uNormal, false, base ? normalMatrix(world) : d.normal);
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
    gl.bindVertexArray(null);
  }

  /// Frees everything uploaded, and the program; the renderer draws nothing after.
  function dispose() {
    for (const d of draws.splice(0)) gl.deleteVertexArray(d.vao);
    for (const made of owned.buffers.splice(0)) gl.deleteBuffer(made);
    for (const texture of owned.textures.splice(0)) gl.deleteTexture(texture);
    gl.deleteProgram(program);
  }

  return { bounds, upload, draw, render, dispose };
}
