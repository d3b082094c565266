// The AR session's own camera as a video track (WebXR raw camera access, the `camera-access`
// feature): in each XR frame, the frame's camera image (`XRWebGLBinding.getCameraImage`) is drawn
// at the size it is sent at and written to a track, with the pose packet of that very frame — so a
// picture and its pose come from the same moment by construction, and the camera is not opened a
// second time (where ARCore holds it, getUserMedia may be refused).

import { writeFrame } from "../media/frame-stream.js";
import { sentSize } from "../media/tagged-video.js";

/// Whether the session can give its camera images: `camera-access` granted, and the bindings there.
export const hasCameraAccess = (session, features) =>
  features.includes("camera-access") && typeof XRWebGLBinding === "function" && typeof MediaStreamTrackGenerator === "function"
  && typeof VideoFrame === "function";

/// How many frames' pose packets are kept to find a picture's (two seconds at 60 Hz).
const posesKept = 120;

const vertexShader = `#version 300 es
out vec2 uv;
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  uv = corner;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`;

// The camera texture has its origin at the bottom (GL's way); the rows read back go top first.
const fragmentShader = `#version 300 es
precision mediump float;
uniform sampler2D camera;
in vec2 uv;
out vec4 color;
void main() { color = vec4(texture(camera, vec2(uv.x, 1.0 - uv.y)).rgb, 1.0); }`;

function compile(gl) {
  const program = gl.createProgram();
  for (const [type, source] of [[gl.VERTEX_SHADER, vertexShader], [gl.FRAGMENT_SHADER, fragmentShader]]) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error("the camera copy does not link: " + gl.getProgramInfoLog(program));
  return program;
}

/// `rgba` (rows from the top, 4 bytes a pixel) as I420 in `out` (luma, then the quarter-size U and V
/// planes, BT.601 limited range): the format cameras give and the room's video tags in memory,
/// without a canvas. `width` and `height` are even.
export function rgbaToI420(rgba, width, height, out) {
  const luma = width * height, quarter = luma / 4;
  for (let i = 0, p = 0; i < luma; i++, p += 4) {
    out[i] = (16 + (66 * rgba[p] + 129 * rgba[p + 1] + 25 * rgba[p + 2] + 128) / 256) | 0;
  }
  for (let y = 0, c = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2, c++) {
      let r = 0, g = 0, b = 0;
      for (const p of [(y * width + x) * 4, (y * width + x + 1) * 4, ((y + 1) * width + x) * 4, ((y + 1) * width + x + 1) * 4]) {
        r += rgba[p]; g += rgba[p + 1]; b += rgba[p + 2];
      }
      out[luma + c] = (128 + (-38 * r - 74 * g + 112 * b + 512) / 1024) | 0;
      out[luma + quarter + c] = (128 + (112 * r - 94 * g - 18 * b + 512) / 1024) | 0;
    }
  }
  return out;
}

/// The GL state the copy changes, to put back after it (the AR view's drawing relies on its own).
function saveState(gl) {
  return {
    framebuffer: gl.getParameter(gl.FRAMEBUFFER_BINDING), program: gl.getParameter(gl.CURRENT_PROGRAM),
    vertexArray: gl.getParameter(gl.VERTEX_ARRAY_BINDING), active: gl.getParameter(gl.ACTIVE_TEXTURE),
    viewport: gl.getParameter(gl.VIEWPORT), blend: gl.isEnabled(gl.BLEND), depth: gl.isEnabled(gl.DEPTH_TEST),
    cull: gl.isEnabled(gl.CULL_FACE), scissor: gl.isEnabled(gl.SCISSOR_TEST),
  };
}

function restoreState(gl, state, texture) {
  gl.bindFramebuffer(gl.FRAMEBUFFER, state.framebuffer);
  gl.useProgram(state.program);
  gl.bindVertexArray(state.vertexArray);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.activeTexture(state.active);
  gl.viewport(...state.viewport);
  for (const [flag, on] of [[gl.BLEND, state.blend], [gl.DEPTH_TEST, state.depth], [gl.CULL_FACE, state.cull], [gl.SCISSOR_TEST, state.scissor]]) {
    if (on) gl.enable(flag); else gl.disable(flag);
  }
}

/// The session's camera as a track. Returns {track, capture(view, packetOf), poseOf(size, time,
/// timestamp), stop()}: `capture`, called inside an XR frame with its view and a function giving
/// the frame's pose packet for a picture size, sends that frame's camera image; `poseOf` finds a
/// sent picture's packet by its timestamp (as `taggedVideo` asks).
export function xrCameraSource(gl, session) {
  const binding = new XRWebGLBinding(session, gl);
  const generator = new MediaStreamTrackGenerator({ kind: "video" });
  const writer = generator.writable.getWriter();
  const poses = new Map();
  let program = null, vertexArray = null, target = null, framebuffer = null, size = null, pixels = null, planes = null, writing = false, stopped = false;

  function prepare(width, height) {
    size = sentSize(width, height);
    program = compile(gl);
    vertexArray = gl.createVertexArray();
    target = gl.createTexture();
    const previous = gl.getParameter(gl.TEXTURE_BINDING_2D);
    gl.bindTexture(gl.TEXTURE_2D, target);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, size[0], size[1]);
    gl.bindTexture(gl.TEXTURE_2D, previous);
    framebuffer = gl.createFramebuffer();
    pixels = new Uint8Array(size[0] * size[1] * 4);
    planes = new Uint8Array(size[0] * size[1] * 3 / 2);
  }

  return {
    track: generator,
    capture(view, packetOf) {
      // A picture still being written (the encoder is behind) lets this frame go.
      if (stopped || writing || !view.camera) return;
      const image = binding.getCameraImage(view.camera);
      if (!image) return;
      if (!size) prepare(view.camera.width, view.camera.height);
      const state = saveState(gl), bound = gl.getParameter(gl.TEXTURE_BINDING_2D);
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
      gl.viewport(0, 0, size[0], size[1]);
      for (const flag of [gl.BLEND, gl.DEPTH_TEST, gl.CULL_FACE, gl.SCISSOR_TEST]) gl.disable(flag);
      gl.useProgram(program);
      gl.bindVertexArray(vertexArray);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, image);
      gl.uniform1i(gl.getUniformLocation(program, "camera"), 0);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.readPixels(0, 0, size[0], size[1], gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      restoreState(gl, state, bound);
      const timestamp = Math.round(performance.now() * 1000);
      poses.set(timestamp, packetOf(size));
      if (poses.size > posesKept) poses.delete(poses.keys().next().value);
      writing = true;
      const picture = new VideoFrame(rgbaToI420(pixels, size[0], size[1], planes), { format: "I420", codedWidth: size[0], codedHeight: size[1], timestamp });
      writeFrame(writer, picture).catch(() => {}).finally(() => { writing = false; });
    },
    poseOf(pictureSize, time, timestamp) {
      return poses.has(timestamp) ? poses.get(timestamp) : null;
    },
    stop() {
      stopped = true;
      writer.close().catch(() => {});
      generator.stop();
      for (const made of [target]) if (made) gl.deleteTexture(made);
      if (framebuffer) gl.deleteFramebuffer(framebuffer);
      if (vertexArray) gl.deleteVertexArray(vertexArray);
      if (program) gl.deleteProgram(program);
    },
  };
}
