// The phone page as the AR device: an immersive-ar WebXR session on WebGL 2, and the tools that
// plug into it (docs/webxr.md, "Tools"). This file is the session's core: it asks for the session
// with what the tools need, keeps its reference spaces and hit test, runs the frame loop (each
// tool's frame, then its drawing), sends each tap to the tool in charge, and shows the tool bar in
// the DOM overlay (#ar-overlay) with the tools the member may use. A tool is an object with any of
// `frame(xrFrame, pose)`, `lost()` (a frame without a viewer pose), `draw(view)` (with a GL program of
// its own), `drawQuads(view)` (in the quad painter's pass), `drawn()` and `dispose()`; a tool that takes taps has a `button`, `activate()`,
// `deactivate()`, `select(event)` and `reticle()` ("any", "level" or null).

import { multiply } from "../viewer/matrix.js";
import { rotationX } from "./placement.js";
import { reticleCanvas } from "./quad-renderer.js";
import { hitOf, isLevel, readLight, sessionCore } from "./session-core.js";
import { prepareProject, projectLayer } from "./project-layer.js";
import { annotateTool } from "./tools/annotate-tool.js";
import { bubbleTool } from "./tools/bubble-tool.js";
import { placeTool } from "./tools/place-tool.js";
import { preparePlace } from "./tools/place-prepare.js";
import { plantTool } from "./tools/plant-tool.js";
import { shareTool } from "./tools/share-tool.js";

const body = document.body;
const project = body.dataset.project, base = `/s/${project}/${body.dataset.name}`;
const $ = (id) => document.getElementById(id);
const now = () => performance.timeOrigin + performance.now();

/// What the AR view is doing, for its check and for anyone debugging a device (docs/webxr.md).
const log = window.arvisXR = {
  state: "idle", mode: null, imageTracking: false, placements: {}, textureRequests: [], textureUpdates: [], timings: {},
  frameTimes: [], panel: null, models: [], trackedTargets: [], annotations: [], annotationsElsewhere: 0, share: { state: "off", room: null, sent: 0, error: null, arrivals: [] },
  version: Number(body.dataset.version), quads: () => [], tool: null,
};

/// What the tools read before the session starts (a session must be asked for in the tap on Enter
/// AR): the spec's scene and pictures, and the project as this member sees it.
let prepared = null, preparing = 0;

/// Reads the scene, target pictures and project ahead of Enter AR.
export async function prepareAR() {
  const ticket = ++preparing;
  const [place, member] = await Promise.all([preparePlace(base, log.version), prepareProject(project).catch(() => null)]);
  const ready = { place, member };
  if (ticket === preparing) prepared = ready;  // a later save's reading wins
  return ready;
}

/// Starts the AR session (from the tap on Enter AR).
export async function startAR() {
  if (["starting", "placing", "placed"].includes(log.state)) return;
  log.timings = { enterClicked: now() };
  log.state = "starting";
  const ready = prepared || await prepareAR().catch((error) => { say(error.message); return null; });
  if (!ready) { log.state = "idle"; return; }
  const overlay = $("ar-overlay");
  // camera-access: the session's own camera images, for "Share my view" (each with its frame's pose).
  const options = { requiredFeatures: ["hit-test"], optionalFeatures: ["anchors", "dom-overlay", "light-estimation", "local-floor", "camera-access"], domOverlay: { root: overlay } };
  const images = ready.place.images.map(({ image, widthInMeters }) => ({ image, widthInMeters }));
  if (ready.member && ready.member.marker) images.push(ready.member.marker);
  if (images.length) {
    options.optionalFeatures.push("image-tracking");
    options.trackedImages = images;
  }
  let session;
  try {
    session = await navigator.xr.requestSession("immersive-ar", options);
  } catch (error) {
    log.state = "idle";
    $("ar-mode").textContent = "AR could not start: " + error.message;
    return;
  }
  try {
    await run(session, ready, overlay);
  } catch (error) {
    // A part the session needs was refused (a reference space, the hit test): end it, say why.
    session.end().catch(() => {});
    log.state = "idle";
    $("ar-mode").textContent = "AR stopped: " + error.message;
  }
}

function say(text) { $("ar-status").textContent = text; }
function banner(text) { const b = $("ar-banner"); b.textContent = text || ""; b.hidden = !text; }

async function run(session, ready, overlay) {
  log.timings.sessionStarted = now();
  const ar = await sessionCore(session, { project, base, log, say, banner, $, now });
  const reticleTexture = ar.painter.texture(reticleCanvas());
  const markerIndex = ready.member && ready.member.marker && ar.trackedScores[ready.place.images.length] === "trackable" ? ready.place.images.length : -1;
  const place = placeTool(ar, ready.place), annotateButton = $("ar-annotate");
  // Sharing stopped: its Annotate tool goes with it, and taps go back to Place.
  const share = ar.share = shareTool(ar, annotateButton, () => { if (active.name === "annotate") choose(place); });
  const projectView = ready.member ? projectLayer(ar, ready.member, markerIndex) : null;
  ar.projectFrame = () => (projectView ? projectView.frame.matrix : null);
  const modes = [annotateTool(ar, share)];
  if (projectView) {
    modes.push(plantTool(ar, { planting: ready.member, frame: projectView.frame, layer: projectView.trees, room: projectView.room }));
    modes.push(bubbleTool(ar, { member: ready.member, frame: projectView.frame, layer: projectView.bubbles, room: projectView.room }));
  }
  const tools = [place, share, ...modes];
  let active = place;
  const choose = (tool) => {
    if (active.deactivate) active.deactivate();
    active = tool;
    for (const mode of modes) mode.button.setAttribute("aria-pressed", String(mode === active));
    if (active.activate) active.activate();
    log.tool = active.name;
  };
  for (const mode of modes) mode.button.onclick = () => choose(active === mode ? place : mode);
  choose(place);
  overlay.hidden = false;
  banner("");

  const onVersion = (event) => place.applyVersion(event.detail);
  const onRows = (event) => place.redrawRows(event.detail.widgets || []);
  const onLive = (event) => { if (event.detail !== "live") say("Spec stream: " + event.detail); else if (ar.streamLost) say(""); ar.streamLost = event.detail !== "live"; };
  window.addEventListener("arvis-version", onVersion);
  window.addEventListener("arvis-rows", onRows);
  window.addEventListener("arvis-live", onLive);
  $("ar-exit").onclick = () => session.end();
  $("ar-replace").onclick = () => { if (active !== place) choose(place); place.replace(); };
  session.addEventListener("select", (event) => {
    // A tap while tracking is lost would act where the reticle is once it is back: refused.
    if (ar.lost) { say("Tracking lost: tap again once the view is back."); return; }
    if (projectView && projectView.frame.tapping) { ar.frameTap = true; return; }
    tapTaker(active, place, share).select(event);
  });
  session.addEventListener("end", () => {
    ar.ended = true;
    window.removeEventListener("arvis-version", onVersion);
    window.removeEventListener("arvis-rows", onRows);
    window.removeEventListener("arvis-live", onLive);
    for (const tool of tools) if (tool.dispose) tool.dispose();
    if (projectView) projectView.dispose();
    ar.hitSource.cancel();
    // The context goes with the session (a browser keeps only a few): the next one makes its own.
    const lose = ar.gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    overlay.hidden = true;
    for (const mode of modes) { mode.button.setAttribute("aria-pressed", "false"); mode.button.onclick = null; }
    // What belonged to this session's member stays off until the next session shows it again.
    $("ar-plant").hidden = true;
    $("ar-bubbles").hidden = true;
    $("ar-align-taps").setAttribute("aria-pressed", "false");
    log.state = "ended";
    window.dispatchEvent(new Event("arvis-ar-ended"));
  });
  const frame = (time, xrFrame) => {
    session.requestAnimationFrame(frame);
    const started = performance.now();
    onFrame(ar, xrFrame, { tools, taker: tapTaker(active, place, share), place, projectView, reticleTexture });
    log.frameTimes.push(performance.now() - started);
    if (log.frameTimes.length > 600) log.frameTimes.shift();
  };
  session.requestAnimationFrame(frame);
}

/// The tool a tap goes to: Place while it still places the environment (before any note or tree),
/// and while annotating without a shared view (the tap reaches the widgets then); else the tool in
/// charge. Planting needs no placed environment: the Plant tool takes taps at once.
function tapTaker(active, place, share) {
  if (active.name === "annotate" && (!share.room || place.reticle())) return place;
  return active;
}

function onFrame(ar, xrFrame, { tools, taker, place, projectView, reticleTexture }) {
  const pose = xrFrame.getViewerPose(ar.space);
  if (!pose) {
    if (!ar.lost) say("Tracking lost: move the phone slowly around the room…");
    ar.lost = true;
    for (const tool of tools) if (tool.lost) tool.lost();
    return;
  }
  if (ar.lost) { ar.lost = false; say(""); place.setPlacing(); }
  ar.viewer = pose.transform.matrix;
  const aligning = projectView && projectView.frame.tapping;
  const wants = aligning ? "level" : taker.reticle();
  ar.hit = wants ? hitOf(ar, xrFrame) : null;
  if (isLevel(ar.hit)) ar.groundHeight = ar.hit.matrix[13];
  if (ar.frameTap) { ar.frameTap = false; projectView.tap(isLevel(ar.hit) ? ar.hit : null); }
  readLight(ar, xrFrame);
  if (projectView) projectView.onFrame(xrFrame);
  for (const tool of tools) if (tool.frame) tool.frame(xrFrame, pose);
  const reticle = ar.hit && (wants === "any" || isLevel(ar.hit)) ? ar.hit.matrix : null;
  draw(ar, pose, tools, projectView, reticle, reticleTexture);
  for (const tool of tools) if (tool.drawn) tool.drawn();
}

function draw(ar, pose, tools, projectView, reticle, reticleTexture) {
  const { gl, layer } = ar;
  gl.bindFramebuffer(gl.FRAMEBUFFER, layer.framebuffer);
  gl.clearColor(0, 0, 0, 0);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  for (const xrView of pose.views) {
    const viewport = layer.getViewport(xrView);
    gl.viewport(viewport.x, viewport.y, viewport.width, viewport.height);
    const viewMatrix = xrView.transform.inverse.matrix, projection = xrView.projectionMatrix;
    ar.projection = projection;
    const view = { viewMatrix, projection, viewProjection: multiply(projection, viewMatrix) };
    // What tools draw with programs of their own first, then the quad painter's pass.
    if (projectView) projectView.draw(view.viewProjection);
    for (const tool of tools) if (tool.draw) tool.draw(view);
    ar.painter.begin(viewMatrix, projection);
    for (const tool of tools) if (tool.drawQuads) tool.drawQuads(view);
    // The reticle lies on the surface: what stands in front of it hides it.
    gl.enable(gl.DEPTH_TEST);
    if (reticle) ar.painter.quad(Array.from(multiply(reticle, multiply(rotationX(-Math.PI / 2), [0.15, 0, 0, 0, 0, 0.15, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))), [1, 1], reticleTexture, 0.9);
    gl.disable(gl.DEPTH_TEST);
    ar.painter.end();
    if (projectView) projectView.drawFilm(view);
  }
}

// A touch on the overlay's controls or panel is theirs, not a tap in the room.
$("ar-overlay").addEventListener("beforexrselect", (event) => { if (event.target !== $("ar-overlay")) event.preventDefault(); });

// The scene, pictures and project are read as soon as the page knows it can enter AR, and again
// after every save (outside AR), so Enter AR starts from the latest version.
const prepare = () => { prepared = null; prepareAR().catch(() => { /* read again on Enter AR */ }); };
window.addEventListener("arvis-ar-available", prepare);
window.addEventListener("arvis-version", (event) => {
  if (["starting", "placing", "placed"].includes(log.state)) return;  // the session applies it
  log.version = Number(event.detail.version);
  prepare();
});
window.addEventListener("arvis-ar-ended", prepare);
