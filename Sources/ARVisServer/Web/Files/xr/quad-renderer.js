// The AR view's WebGL 2 side for flat things: textured quads (widgets, their placeholders,
// annotation labels), the reticle on the surface the viewer aims at, and solid markers. A quad
// lies in its local XY plane, centred, facing +Z, as scene.json describes it.

import { linkProgram } from "../viewer/program.js";

const vertexShader = `#version 300 es
  in vec2 aCorner;
  uniform mat4 uModel, uView, uProjection; uniform vec2 uSize;
  out vec2 vUV;
  void main() {
    vUV = vec2(aCorner.x + 0.5, 0.5 - aCorner.y);
    gl_Position = uProjection * uView * uModel * vec4(aCorner * uSize, 0.0, 1.0);
  }`;

const fragmentShader = `#version 300 es
  precision mediump float;
  in vec2 vUV; uniform sampler2D uTexture; uniform vec4 uColor; uniform bool uSolid;
  out vec4 color;
  void main() { color = uSolid ? uColor : texture(uTexture, vUV) * uColor.a; }`;

/// A quad renderer on `gl`: {texture(source) → WebGLTexture, forget(texture), begin(view,
/// projection), quad(model, size, texture, opacity), solid(model, size, rgba), end()}.
export function createQuadRenderer(gl) {
  const { program, u } = linkProgram(gl, vertexShader, fragmentShader, ["aCorner"], ["uModel", "uView", "uProjection", "uSize", "uTexture", "uColor", "uSolid"]);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.bindVertexArray(null);

  /// A texture of an ImageBitmap or canvas, premultiplied, mipmapped (text stays legible far off).
  function texture(source) {
    const made = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, made);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return made;
  }

  function begin(view, projection) {
    gl.useProgram(program);
    gl.bindVertexArray(vao);
    gl.uniformMatrix4fv(u.uView, false, view);
    gl.uniformMatrix4fv(u.uProjection, false, projection);
    gl.uniform1i(u.uTexture, 0);
    gl.activeTexture(gl.TEXTURE0);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.disable(gl.CULL_FACE);
  }

  function draw(model, size) {
    gl.uniformMatrix4fv(u.uModel, false, model);
    gl.uniform2f(u.uSize, size[0], size[1]);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  return {
    texture,
    forget: (made) => gl.deleteTexture(made),
    begin,
    quad(model, size, made, opacity = 1) {
      gl.uniform1i(u.uSolid, 0);
      gl.uniform4f(u.uColor, 1, 1, 1, opacity);
      gl.bindTexture(gl.TEXTURE_2D, made);
      draw(model, size);
    },
    solid(model, size, rgba) {
      gl.uniform1i(u.uSolid, 1);
      gl.uniform4f(u.uColor, rgba[0] * rgba[3], rgba[1] * rgba[3], rgba[2] * rgba[3], rgba[3]);
      draw(model, size);
    },
    end() { gl.bindVertexArray(null); },
  };
}

/// A canvas of `width` × `height` pixels drawn by `paint(context)`: for textures made on the page.
export function paintedCanvas(width, height, paint) {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  paint(canvas.getContext("2d"));
  return canvas;
}

/// The placeholder of a widget whose texture did not load: a grey card saying which and why.
export function placeholderCanvas(id, reason) {
  return paintedCanvas(512, 256, (c) => {
    c.fillStyle = "#e5e5ea";
    c.fillRect(0, 0, 512, 256);
    c.strokeStyle = "#8e8e93";
    c.lineWidth = 8;
    c.strokeRect(4, 4, 504, 248);
    c.fillStyle = "#1c1c1e";
    c.font = "bold 34px sans-serif";
    c.fillText(id.slice(0, 26), 24, 96);
    c.font = "26px sans-serif";
    c.fillText(reason.slice(0, 34), 24, 150);
  });
}

/// The reticle: a ring where the viewer aims, flat on the surface.
export const reticleCanvas = () => paintedCanvas(128, 128, (c) => {
  c.strokeStyle = "#ffffff";
  c.lineWidth = 10;
  c.beginPath();
  c.arc(64, 64, 52, 0, 2 * Math.PI);
  c.stroke();
  c.fillStyle = "#ffffff";
  c.beginPath();
  c.arc(64, 64, 6, 0, 2 * Math.PI);
  c.fill();
});

/// An annotation's label: its text on a yellow note.
export const labelCanvas = (text) => paintedCanvas(256, 256, (c) => {
  c.fillStyle = "#ffd60a";
  c.fillRect(0, 0, 256, 256);
  c.fillStyle = "#1c1c1e";
  c.font = "bold 28px sans-serif";
  const words = String(text || "").split(/\s+/);
  let line = "", y = 48;
  for (const word of words) {
    if (c.measureText(line + word).width > 220 && line) { c.fillText(line, 16, y); line = ""; y += 34; }
    line += word + " ";
  }
  c.fillText(line, 16, y);
});
