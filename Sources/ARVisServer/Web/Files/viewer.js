// ARVis orbit viewer: draws a GLB with WebGL 2, no library. Orbit (drag), pan (shift-drag, right
// drag or two fingers), zoom (wheel or pinch), reset (double-click, double-tap, the button or 0).
// The first view is the server thumbnail's (viewer/orbit.js). The page's one script, a module:
// the page names the model (canvas#view's data-model); window.arvisViewer reports frames drawn.

import { parseGLB } from "./viewer/glb.js";
import { framing, orbited, panned, zoomed } from "./viewer/orbit.js";
import { createRenderer } from "./viewer/renderer.js";

/// Turning, moving and zooming the camera with a pointer, the wheel and the keys.
function listen(canvas, view) {
  const pointers = new Map();
  let lastTap = 0;
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
      if (before > 0 && after > 0) view.zoom(before / after);
      view.pan(dx / 2, dy / 2);
    } else if (previous.button === 2 || previous.shift) {
      view.pan(dx, dy);
    } else {
      view.orbit(dx, dy);
    }
    previous.x = event.clientX;
    previous.y = event.clientY;
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (event.type === "pointerup" && event.pointerType === "touch") {
      const now = performance.now();
      if (now - lastTap < 300) view.reset();
      lastTap = now;
    }
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  canvas.addEventListener("dblclick", view.reset);
  canvas.addEventListener("wheel", (event) => { event.preventDefault(); view.zoom(Math.exp(event.deltaY * 0.001)); }, { passive: false });
  canvas.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: () => view.orbit(-20, 0), ArrowRight: () => view.orbit(20, 0), ArrowUp: () => view.orbit(0, -20), ArrowDown: () => view.orbit(0, 20),
      "+": () => view.zoom(0.9), "=": () => view.zoom(0.9), "-": () => view.zoom(1.1), "0": view.reset, Home: view.reset };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
}

/// The AR links the device can follow: AR Quick Look on iOS, Scene Viewer on Android.
function showARLinks() {
  const agent = navigator.userAgent;
  const isIOS = /iPhone|iPad|iPod/.test(agent) || (agent.includes("Macintosh") && navigator.maxTouchPoints > 1);
  const quickLook = document.getElementById("ar-ios"), sceneViewer = document.getElementById("ar-android");
  if (quickLook) quickLook.hidden = !isIOS;
  if (sceneViewer) sceneViewer.hidden = !/Android/.test(agent);
}

/// The model's bytes, or why they cannot be had.
async function fetchModel(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(response.status === 409 ? "the model is still being processed; reload in a moment" : "the server answered " + response.status);
  return response.arrayBuffer();
}

function main() {
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
  const renderer = createRenderer(gl);
  let camera = framing(renderer.bounds), pending = false;

  function draw() {
    pending = false;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio)), height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    renderer.draw(camera, width, height);
    state.frames += 1;
    canvas.dataset.frames = String(state.frames);
    if (state.frames === 1 && poster) poster.hidden = true;
  }
  const requestDraw = () => { if (!pending) { pending = true; requestAnimationFrame(draw); } };
  const view = {
    reset: () => { camera = framing(renderer.bounds); requestDraw(); },
    orbit: (dx, dy) => { Object.assign(camera, orbited(camera, dx, dy)); requestDraw(); },
    zoom: (factor) => { camera.distance = zoomed(camera, factor); requestDraw(); },
    pan: (dx, dy) => { camera.target = panned(camera, dx, dy, canvas.clientHeight); requestDraw(); },
  };
  listen(canvas, view);
  const resetButton = document.getElementById("reset");
  if (resetButton) resetButton.addEventListener("click", view.reset);
  window.addEventListener("resize", requestDraw);
  showARLinks();

  say("Loading the model…");
  fetchModel(canvas.dataset.model)
    .then((buffer) => renderer.upload(parseGLB(buffer)))
    .then(() => { state.ready = true; say(""); view.reset(); })
    .catch((error) => fail("This model could not be shown: " + error.message));
}

main();
