// The phone page as the AR device: an immersive-ar WebXR session on WebGL 2. A reticle shows
// where the viewer aims (hit-test); a tap places the environment (held by an anchor where the
// browser has them); image targets follow their tracked pictures where the browser tracks images,
// or take a tap each. Widgets are quads at scene.json's poses with the hub's PNGs; the spec's
// saves swap their textures live; taps open widgets' controls and links; "Share my view" sends
// the pose to a room every frame. The controls are WebXR's DOM overlay (#ar-overlay).

import { createRenderer } from "../viewer/renderer.js";
import { parseGLB } from "../viewer/glb.js";
import { multiply, transformPoint } from "../viewer/matrix.js";
import { createARScene, fetchScene } from "./ar-scene.js";
import { imageFrameOnHit, invert, positionOf, quadOfImage, rotationX, worldPlacement } from "./placement.js";
import { encodePose } from "../protocol/pose-packet.js";
import { intrinsicsOf, tapOnView } from "./view-intrinsics.js";
import { createQuadRenderer, reticleCanvas } from "./quad-renderer.js";
import { lookUpRoomLink, shareRoom } from "./room-share.js";
import { picturePacket, shareViewVideo } from "./view-video.js";
import { hasCameraAccess, xrCameraSource } from "./xr-camera.js";
import { panelRect, widgetPanel } from "./widget-panel.js";

const body = document.body;
const base = `/s/${body.dataset.project}/${body.dataset.name}`;
const $ = (id) => document.getElementById(id);
const now = () => performance.timeOrigin + performance.now();

/// What the AR view is doing, for its check and for anyone debugging a device (docs/webxr.md).
const log = window.arvisXR = {
  state: "idle", mode: null, imageTracking: false, placements: {}, textureRequests: [], textureUpdates: [], timings: {},
  frameTimes: [], panel: null, models: [], trackedTargets: [], annotations: [], annotationsElsewhere: 0, share: { state: "off", room: null, sent: 0, error: null, arrivals: [] },
  version: Number(body.dataset.version), quads: () => [],
};

/// The spec's scene and the pictures of its image targets, read before the session starts (a
/// session must be asked for in the tap on Enter AR).
let prepared = null, preparing = 0;

/// The image target pictures the browser may track: those on this server or in the spec
/// (`data:`); a picture elsewhere is not fetched, and its target is placed by a tap.
async function trackableImages(scene) {
  const images = [];
  for (const id of scene.images) {
    const node = scene.nodes.get(id), url = new URL(node.asset || "", location.href);
    if (url.protocol !== "data:" && url.origin !== location.origin) continue;
    try {
      const picture = new Image();
      picture.src = url.href;
      await picture.decode();
      if (!(node.size[0] > 0 && Number.isFinite(node.size[0]))) continue;  // a session refuses it
      images.push({ id, image: await createImageBitmap(picture), widthInMeters: node.size[0], picture: pictureOf(node) });
    } catch (error) { /* a picture that does not decode: placed by a tap */ }
  }
  return images;
}

/// What an image target's tracking was set up with: its picture and physical width.
const pictureOf = (node) => `${node.asset} ${node.size[0]}`;

/// Reads the scene and target pictures ahead of Enter AR.
export async function prepareAR() {
  const ticket = ++preparing, version = log.version;
  const scene = await fetchScene(`${base}/scene.json`);
  const ready = { scene, images: await trackableImages(scene), version };
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
  if (ready.images.length) {
    options.optionalFeatures.push("image-tracking");
    options.trackedImages = ready.images.map(({ image, widthInMeters }) => ({ image, widthInMeters }));
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
  const canvas = document.createElement("canvas");
  const gl = canvas.getContext("webgl2", { xrCompatible: true, alpha: true, antialias: false });
  await gl.makeXRCompatible();
  const layer = new XRWebGLLayer(session, gl);
  session.updateRenderState({ baseLayer: layer, depthNear: 0.01, depthFar: 1000 });
  const features = session.enabledFeatures || [];
  let space;
  try { space = await session.requestReferenceSpace("local-floor"); } catch (error) { space = await session.requestReferenceSpace("local"); }
  const viewerSpace = await session.requestReferenceSpace("viewer");
  const hitSource = await session.requestHitTestSource({ space: viewerSpace });
  const probe = features.includes("light-estimation") && session.requestLightProbe ? await session.requestLightProbe().catch(() => null) : null;

  const painter = createQuadRenderer(gl), reticleTexture = painter.texture(reticleCanvas());
  const view = createARScene({ base, scene: ready.scene, version: ready.version, painter, log });
  const tracked = await trackedTargets(session, features, ready.images);
  const pictures = new Map(ready.images.map((image) => [image.id, image.picture]));
  log.imageTracking = tracked.size > 0;
  log.trackedTargets = [...tracked.values()];
  const start = firstFrame();
  const ar = { session, gl, layer, space, view, painter, features, tracked, pictures, world: null, images: {}, anchors: {}, planes: [], placeRequested: false, placing: 0, ended: false, viewer: null, light: 1, firstFrame: start, frame: start, share: null, annotate: false, markers: new Map(), elsewhere: new Set(), models: new Map(), lost: false };
  // Every quad the scene holds is drawn: widgets of the scene, and link children once opened.
  log.quads = () => [...view.state.quads.values()].filter((quad) => quad.matrix).map((quad) => ({ id: quad.id, kind: quad.kind, parent: quad.parent, matrix: Array.from(quad.matrix), size: quad.size, texture: quad.status, visible: true }));
  const panel = widgetPanel($("ar-panel"), base, () => { log.panel = null; });
  overlay.hidden = false;
  banner("");
  $("ar-share").setAttribute("aria-pressed", "false");
  $("ar-annotate").hidden = true;
  setPlacing(ar);
  explainTargets(ar);
  syncModels(ar);

  const onVersion = (event) => applyVersion(ar, event.detail);
  const onRows = (event) => view.redrawRows(event.detail.widgets || []);
  const onLive = (event) => { if (event.detail !== "live") say("Spec stream: " + event.detail); else if (ar.streamLost) say(""); ar.streamLost = event.detail !== "live"; };
  window.addEventListener("arvis-version", onVersion);
  window.addEventListener("arvis-rows", onRows);
  window.addEventListener("arvis-live", onLive);
  const controls = {
    "ar-exit": () => session.end(),
    "ar-replace": () => {
      Object.values(ar.anchors).forEach((held) => held.anchor.delete && held.anchor.delete());
      Object.assign(ar, { anchors: {}, world: null, images: {}, placing: ar.placing + 1 });
      updatePlacement(ar);
      setPlacing(ar);
    },
    "ar-share": () => toggleShare(ar),
    "ar-annotate": () => { ar.annotate = !ar.annotate; $("ar-annotate").setAttribute("aria-pressed", String(ar.annotate)); say(ar.annotate ? "Tap where the note goes" : ""); },
  };
  for (const [id, action] of Object.entries(controls)) $(id).onclick = action;
  session.addEventListener("select", (event) => select(ar, event, panel));
  session.addEventListener("end", () => {
    ar.ended = true;
    window.removeEventListener("arvis-version", onVersion);
    window.removeEventListener("arvis-rows", onRows);
    window.removeEventListener("arvis-live", onLive);
    if (ar.share) stopSharing(ar);
    hitSource.cancel();
    panel.close();
    view.dispose();
    // The context goes with the session (a browser keeps only a few): the next one makes its own.
    const lose = gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    overlay.hidden = true;
    log.state = "ended";
    log.quads = () => [];
    window.dispatchEvent(new Event("arvis-ar-ended"));
  });
  const frame = (time, xrFrame) => {
    session.requestAnimationFrame(frame);
    const started = performance.now();
    onFrame(ar, xrFrame, hitSource, reticleTexture, probe);
    log.frameTimes.push(performance.now() - started);
    if (log.frameTimes.length > 600) log.frameTimes.shift();
  };
  session.requestAnimationFrame(frame);
}

/// The image targets the session tracks, by the index it reports them with → target id.
async function trackedTargets(session, features, images) {
  const tracked = new Map();
  if (!features.includes("image-tracking") || !images.length || !session.getTrackedImageScores) return tracked;
  const scores = await session.getTrackedImageScores().catch(() => []);
  images.forEach((image, index) => { if (scores[index] === "trackable") tracked.set(index, image.id); });
  return tracked;
}

/// Says on screen how each kind of target gets its place in this browser.
function explainTargets(ar) {
  const scene = ar.view.state.scene, notes = [];
  const untracked = scene.images.filter((id) => ![...ar.tracked.values()].includes(id));
  if (ar.tracked.size) notes.push(`${ar.tracked.size} image target(s) follow their pictures: point the camera at them.`);
  if (untracked.length) notes.push(`${untracked.length} image target(s) are placed by a tap each (${ar.features.includes("image-tracking") ? "their pictures are not on this server" : "this browser does not track images"}).`);
  if (scene.targets.some((node) => /^object\d+$/.test(node.id))) notes.push("Object targets are not tracked in a browser: they stand where the scene lays them out around the placed origin.");
  if (scene.targets.some((node) => node.id.startsWith("geo-"))) notes.push("Geo anchors stand around the placed origin as they do around the first one (no GPS in WebXR).");
  ar.explanation = notes.join(" ");
}

/// Whether every target has its place; sets the state and what the status line asks for.
function setPlacing(ar) {
  const scene = ar.view.state.scene;
  const waitingWorld = scene.needsWorld && !ar.world;
  const trackedIds = new Set(ar.tracked.values());
  const nextImage = scene.images.find((id) => !ar.images[id] && !trackedIds.has(id));
  const unseen = scene.images.filter((id) => trackedIds.has(id) && !ar.images[id]);
  if (waitingWorld) say("Aim at the floor and tap to place the environment. " + (ar.explanation || ""));
  else if (nextImage) say(`Aim at the wall or table where ${nextImage}'s picture is and tap to place it (${scene.nodes.get(nextImage).size[0]} m wide).`);
  else if (unseen.length) say("Point the camera at the image target(s): " + unseen.join(", "));
  else if (log.state !== "placed") say("");
  log.state = waitingWorld || nextImage || unseen.length ? "placing" : "placed";
}

/// Whether a tap places something: the environment, or an image target no picture places. (A
/// tracked target not seen yet waits for its picture; meanwhile taps reach the widgets.)
function tapPlaces(ar) {
  const scene = ar.view.state.scene, trackedIds = new Set(ar.tracked.values());
  return (scene.needsWorld && !ar.world) || scene.images.some((id) => !ar.images[id] && !trackedIds.has(id));
}

/// Publishes the placements to the scene and the log.
function updatePlacement(ar) {
  ar.view.setPlacement(ar.world, ar.images);
  log.placements = { ...ar.view.state.poses };
  if (ar.world) log.placements.world = Array.from(ar.world);
}

function onFrame(ar, frame, hitSource, reticleTexture, probe) {
  const pose = frame.getViewerPose(ar.space);
  if (!pose) {
    if (!ar.lost) say("Tracking lost: move the phone slowly around the room…");
    ar.lost = true;
    return;
  }
  if (ar.lost) { ar.lost = false; say(""); setPlacing(ar); }
  ar.viewer = pose.transform.matrix;
  followTracking(ar, frame);
  let reticle = null;
  if (log.state === "placing" && tapPlaces(ar)) {
    const hits = frame.getHitTestResults(hitSource), pose = hits.length ? hits[0].getPose(ar.space) : null;
    reticle = pose ? pose.transform.matrix : null;
    // A tap asks for a placement; it is made here, in a frame, where the hit can take an anchor.
    if (ar.placeRequested) { ar.placeRequested = false; place(ar, hits[0], reticle); }
  }
  if (probe && frame.getLightEstimate) {
    const estimate = frame.getLightEstimate(probe);
    if (estimate) ar.light = Math.min(1.5, Math.max(0.3, Math.max(estimate.primaryLightIntensity.x, estimate.primaryLightIntensity.y, estimate.primaryLightIntensity.z)));
  }
  draw(ar, pose, reticle, reticleTexture);
  if (ar.share && log.share.state === "on") {
    publish(ar, pose);
    if (ar.xrCamera) ar.xrCamera.capture(pose.views[0], (size) => picturePacket(ar.published, size));
  }
}

/// Moves tracked image targets and anchored placements to where the browser now sees them.
function followTracking(ar, frame) {
  let moved = false;
  if (ar.tracked.size && frame.getImageTrackingResults) {
    for (const result of frame.getImageTrackingResults()) {
      const id = ar.tracked.get(result.index);
      if (!id || result.trackingState !== "tracked") continue;
      const image = frame.getPose(result.imageSpace, ar.space);
      if (image) { ar.images[id] = quadOfImage(image.transform.matrix); moved = true; }
    }
  }
  for (const [key, held] of Object.entries(ar.anchors)) {
    if (!frame.trackedAnchors || !frame.trackedAnchors.has(held.anchor)) continue;
    const anchored = frame.getPose(held.anchor.anchorSpace, ar.space);
    if (!anchored) continue;
    const placed = Array.from(multiply(anchored.transform.matrix, held.offset));
    const previous = key === "world" ? ar.world : ar.images[key];
    // An anchor's pose trembles a little every frame: under half a millimetre it stays put.
    if (previous && placed.every((value, index) => Math.abs(value - previous[index]) < 5e-4)) continue;
    if (key === "world") ar.world = placed; else ar.images[key] = placed;
    moved = true;
  }
  if (moved) { updatePlacement(ar); if (log.state === "placing") setPlacing(ar); }
}

function draw(ar, pose, reticle, reticleTexture) {
  const { gl, layer, view } = ar;
  gl.bindFramebuffer(gl.FRAMEBUFFER, layer.framebuffer);
  gl.clearColor(0, 0, 0, 0);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  let allReady = true;
  for (const xrView of pose.views) {
    const viewport = layer.getViewport(xrView);
    gl.viewport(viewport.x, viewport.y, viewport.width, viewport.height);
    const viewMatrix = xrView.transform.inverse.matrix, projection = xrView.projectionMatrix;
    ar.projection = projection;
    ar.viewport = [viewport.width, viewport.height];
    for (const [id, model] of ar.models) {
      const matrix = model.renderer && ar.view.matrixOf(id);
      if (matrix) model.renderer.render(viewMatrix, projection, matrix, ar.light);
    }
    gl.enable(gl.DEPTH_TEST);
    ar.painter.begin(viewMatrix, projection);
    for (const quad of view.state.quads.values()) {
      if (!quad.matrix) continue;
      if (!quad.texture) { allReady = false; continue; }
      ar.painter.quad(quad.matrix, quad.size, quad.texture);
      if (quad.drawnVersion !== quad.textureVersion) {
        quad.drawnVersion = quad.textureVersion;
        log.textureUpdates.push({ id: quad.id, version: quad.textureVersion, at: now() });
      }
    }
    gl.disable(gl.DEPTH_TEST);
    const facing = pose.transform.matrix;
    for (const [, marker] of ar.markers) {
      const at = [facing[0], facing[1], facing[2], 0, facing[4], facing[5], facing[6], 0, facing[8], facing[9], facing[10], 0, marker.position[0], marker.position[1], marker.position[2], 1];
      ar.painter.solid(at, [0.05, 0.05], [1, 0, 1, 1]);
    }
    if (reticle) ar.painter.quad(Array.from(multiply(reticle, multiply(rotationX(-Math.PI / 2), [0.15, 0, 0, 0, 0, 0.15, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))), [1, 1], reticleTexture, 0.9);
    ar.painter.end();
  }
  if (log.state === "placed" && allReady && !log.timings.placed) log.timings.placed = now();
}

/// A tap: places the next target while placing; afterwards a tap on a widget opens its controls
/// or links (or, annotating, places a note in the shared room).
async function select(ar, event, panel) {
  if (log.state === "placing" && tapPlaces(ar)) { ar.placeRequested = true; return; }
  const ray = event.frame.getPose(event.inputSource.targetRaySpace, ar.space);
  if (!ray) return;
  const m = ray.transform.matrix, origin = [m[12], m[13], m[14]], direction = [-m[8], -m[9], -m[10]];
  if (ar.annotate && ar.share && log.share.state === "on") {
    const tap = tapOnView(direction, ar.viewer, ar.projection);
    if (tap) ar.share.annotate(tap, ar.frame, null);
    return;
  }
  const hit = castRay(ar, origin, direction);
  if (!hit) { if (panel.open) { panel.close(); log.panel = null; } return; }
  const quad = ar.view.state.quads.get(hit.id);
  const corners = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([x, y]) => toScreen(ar, transformPoint(quad.matrix, [x * quad.size[0], y * quad.size[1], 0])));
  const answer = await panel.tap(hit.id, ar.view.state.version, hit.u, hit.v, panelRect(corners, innerWidth, innerHeight)).catch(() => ({ kind: "none" }));
  if (ar.ended) return;
  log.panel = panel.open;
  if (answer.kind === "link") {
    const shown = await ar.view.open(answer.child).catch(() => false);
    say(shown ? "" : "That link's widget is not in this scene (a url= link the server does not fetch)");
  }
}

/// The nearest drawn quad along a ray, with where it was hit ([0…1] from its top left).
function castRay(ar, origin, direction) {
  let best = null;
  for (const quad of ar.view.state.quads.values()) {
    if (!quad.matrix || !quad.inverse || quad.kind !== "widget") continue;
    const o = transformPoint(quad.inverse, origin), far = transformPoint(quad.inverse, origin.map((value, k) => value + direction[k]));
    const d = [far[0] - o[0], far[1] - o[1], far[2] - o[2]];
    if (Math.abs(d[2]) < 1e-9) continue;
    const t = -o[2] / d[2];
    if (t <= 0 || (best && t >= best.t)) continue;
    const x = o[0] + t * d[0], y = o[1] + t * d[1];
    if (Math.abs(x) > quad.size[0] / 2 || Math.abs(y) > quad.size[1] / 2) continue;
    best = { id: quad.id, t, u: x / quad.size[0] + 0.5, v: 0.5 - y / quad.size[1] };
  }
  return best;
}

/// A room point on the overlay, in CSS pixels, or null behind the viewer.
function toScreen(ar, point) {
  const local = transformPoint(invert(ar.viewer), point);
  if (local[2] >= 0) return null;
  const p = ar.projection, x = p[0] * local[0] / -local[2] - p[8], y = p[5] * local[1] / -local[2] - p[9];
  return [(x + 1) / 2 * innerWidth, (1 - y) / 2 * innerHeight];
}

/// Puts the next unplaced target where the reticle is (the hit test result `hit`, at pose `h`),
/// held by an anchor where there are anchors.
function place(ar, hit, h) {
  if (!hit || !h) { say("No surface found yet: move the phone slowly over the floor or a wall."); return; }
  const viewer = positionOf(ar.viewer);
  const scene = ar.view.state.scene, trackedIds = new Set(ar.tracked.values());
  let key;
  if (scene.needsWorld && !ar.world) { key = "world"; ar.world = worldPlacement(h, viewer); }
  else {
    key = scene.images.find((id) => !ar.images[id] && !trackedIds.has(id));
    if (!key) return;
    ar.images[key] = quadOfImage(imageFrameOnHit(h, viewer));
  }
  const placed = key === "world" ? ar.world : ar.images[key];
  if (ar.features.includes("anchors") && hit.createAnchor) {
    // An anchor that arrives after Place again (or the session's end) belongs to nothing: dropped.
    const placing = ar.placing;
    hit.createAnchor().then((anchor) => {
      if (ar.ended || ar.placing !== placing) { if (anchor.delete) anchor.delete(); return; }
      ar.anchors[key] = { anchor, offset: Array.from(multiply(invert(h), placed)) };
    }, () => { /* no anchor: the pose stays where it was put */ });
  }
  updatePlacement(ar);
  setPlacing(ar);
  ar.planes.push({ point: positionOf(h), normal: [h[4], h[5], h[6]] });
  if (ar.share) ar.share.planes(ar.planes);
}

/// A saved version: swaps the changed widgets' textures in place; a version that no longer lays
/// out keeps the last good one on screen, with a banner.
async function applyVersion(ar, message) {
  try {
    await ar.view.update(message);
    if (ar.ended) return;
    log.version = message.version;
    untrackChangedPictures(ar);
    syncModels(ar);
    banner("");
    setPlacing(ar);
  } catch (error) {
    if (ar.ended) return;
    banner(`Version ${message.version} cannot be shown in AR (${error.message}); showing version ${ar.view.state.version}.`);
  }
}

/// Stops following the tracked image targets whose picture or width a saved version changed (or
/// that it removed): the session keeps tracking the pictures it started with, by index, so those
/// results no longer belong to them. They stay where last seen; Place again taps them anew.
function untrackChangedPictures(ar) {
  const scene = ar.view.state.scene;
  for (const [index, id] of ar.tracked) {
    const node = scene.nodes.get(id);
    if (node && Array.isArray(node.size) && pictureOf(node) === ar.pictures.get(id)) continue;
    ar.tracked.delete(index);
    say(`${id}: its picture changed, and this session tracks the one it started with: it stays where it was seen (enter AR again to track the new picture).`);
  }
  log.trackedTargets = [...ar.tracked.values()];
}

/// Gallery models the spec places (on this server only), drawn with the orbit viewer's renderer
/// and kept in step with each version: a moved placement moves (its pose is read from the
/// current scene every frame), a new one loads, one removed or given another model goes.
async function syncModels(ar) {
  const wanted = new Map();
  for (const node of ar.view.state.scene.nodes.values()) if (node.kind === "placement" && node.asset) wanted.set(node.id, node.asset);
  for (const [id, model] of ar.models) {
    if (wanted.get(id) !== model.asset) { if (model.renderer) model.renderer.dispose(); ar.models.delete(id); }
  }
  const loading = [];
  for (const [id, asset] of wanted) if (!ar.models.has(id)) loading.push(loadModel(ar, id, asset));
  await Promise.all(loading);
  log.models = [...ar.models].filter(([, model]) => model.renderer).map(([id]) => id).sort();
}

/// Loads placement `id`'s model into `ar.models`, unless it is gone or changed when it arrives.
async function loadModel(ar, id, asset) {
  const model = { asset, renderer: null };
  ar.models.set(id, model);
  const url = new URL(asset, location.href);
  if (url.origin !== location.origin || !url.pathname.includes("/assets/")) { say(`${id}: its model is not in this server's gallery, so it is not drawn`); return; }
  try {
    const response = await fetch(url.pathname);
    if (!response.ok) throw new Error("HTTP " + response.status);
    const glb = parseGLB(await response.arrayBuffer());
    if (ar.ended || ar.models.get(id) !== model) return;
    const renderer = createRenderer(ar.gl);
    await renderer.upload(glb);
    if (ar.ended || ar.models.get(id) !== model) { renderer.dispose(); return; }
    model.renderer = renderer;
  } catch (error) { say(`${id}: its model did not load (${error.message})`); }
}

/// Sends the viewer's pose to the room: an ARVis pose packet per frame.
function publish(ar, pose) {
  const view = pose.views[0], [width, height] = [innerWidth, innerHeight];
  const t = pose.transform, o = t.orientation, p = t.position;
  ar.frame += 1;
  ar.published = {
    viewport: [width, height], frame: ar.frame, time: now() / 1000, position: [p.x, p.y, p.z], orientation: [o.x, o.y, o.z, o.w],
    intrinsics: intrinsicsOf(view.projectionMatrix, width, height),
  };
  ar.share.publish(encodePose(ar.published));
  log.share.sent = ar.share.sent;
}

/// "Share my view": joins the room the page's link names (`?room=R#link=TOKEN`), or as a signed-in
/// member the room `?room=` names (else "main"); pressed again, stops.
async function toggleShare(ar) {
  const button = $("ar-share");
  if (ar.share) { stopSharing(ar); button.setAttribute("aria-pressed", "false"); $("ar-annotate").hidden = true; return; }
  if (ar.shareStarting) return;
  const params = new URLSearchParams(location.search), hash = new URLSearchParams(location.hash.slice(1));
  const link = sessionStorage.getItem(roomLinkKey) || hash.get("link"), token = localStorage.getItem("arvis.token");
  const room = params.get("room") || "main";
  Object.assign(log.share, { room, error: null, arrivals: [] });
  if (link) {
    ar.shareStarting = true;
    try { await lookUpRoomLink(link); } catch (error) {
      Object.assign(log.share, { state: "refused", error: error.code });
      say("Sharing refused: " + error.message);
      return;
    } finally {
      ar.shareStarting = false;
    }
    if (ar.ended || ar.share) return;
  } else if (!token) { say("Sign in to ARVis Studio on this phone, or open a room link from the project's owner, to share your view."); return; }
  button.setAttribute("aria-pressed", "true");
  $("ar-annotate").hidden = false;
  ar.share = shareRoom({ project: body.dataset.project, room, link, token }, {
    state: (state, detail) => {
      log.share.state = state;
      if (state === "refused") log.share.error = "refused";
      if (state === "on" && ar.share) ar.share.planes(ar.planes);
      say(detail ? detail : state === "on" ? `Sharing your view in room ${room}` : "");
    },
    annotations: (list, replace) => {
      if (replace) { ar.markers.clear(); ar.elsewhere.clear(); }
      else for (const a of list) if (a.clientId) log.share.arrivals.push([a.clientId, Date.now()]);
      for (const a of list) {
        if (madeInSession(a, ar)) ar.markers.set(a.id, { position: [a.position.x, a.position.y || 0, a.position.z], text: a.text });
        else ar.elsewhere.add(a.id);
      }
      logAnnotations(ar);
      if (replace && ar.elsewhere.size) say(`${ar.elsewhere.size} note${ar.elsewhere.size === 1 ? " was" : "s were"} placed in another AR session: not shown here, where that session's coordinates mean nothing`);
    },
    removed: (id) => { ar.markers.delete(id); ar.elsewhere.delete(id); logAnnotations(ar); },
    message: (message) => ar.video.message(message),
  });
  ar.xrCamera = hasCameraAccess(ar.session, ar.features) ? xrCameraSource(ar.gl, ar.session) : null;
  ar.video = shareViewVideo(ar.share, () => (ar.lost ? null : ar.published), log.share, say, ar.xrCamera);
}

/// Stops sharing the view: the video, the session's camera copy (once the video no longer reads
/// it: media/frame-stream.js), the room.
function stopSharing(ar) {
  const xrCamera = ar.xrCamera;
  ar.video.stop().finally(() => { if (xrCamera) xrCamera.stop(); });
  ar.share.close();
  ar.share = ar.xrCamera = null;
}

/// Whether a room's annotation was placed on one of this session's frames: only those are in this
/// session's coordinates (each session has its own origin; the frame ids it sends start at random).
const madeInSession = (annotation, ar) =>
  Number.isInteger(annotation.frame) && annotation.frame >= ar.firstFrame && annotation.frame <= ar.frame;

const logAnnotations = (ar) => {
  log.annotations = [...ar.markers].map(([id, m]) => ({ id, position: m.position, text: m.text }));
  log.annotationsElsewhere = ar.elsewhere.size;
};

/// A frame id to start a session's pose packets at: random, so two sessions in one room (or one
/// after another) never name the same frame.
const firstFrame = () => crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;

/// Where a room link from the page's address is kept once read: the address loses it, so it is
/// neither in the history nor shown on screen. It is kept for its project and room alone, so
/// another project's page in the same tab never uses it.
const roomLinkKey = "arvis.roomLink:" + body.dataset.project + "/" + (new URLSearchParams(location.search).get("room") || "main");
{
  const link = new URLSearchParams(location.hash.slice(1)).get("link");
  if (link) {
    sessionStorage.setItem(roomLinkKey, link);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

// A touch on the overlay's controls or panel is theirs, not a tap in the room.
$("ar-overlay").addEventListener("beforexrselect", (event) => { if (event.target !== $("ar-overlay")) event.preventDefault(); });

// The scene and target pictures are read as soon as the page knows it can enter AR, and again
// after every save (outside AR), so Enter AR starts from the latest version.
const prepare = () => { prepared = null; prepareAR().catch(() => { /* read again on Enter AR */ }); };
window.addEventListener("arvis-ar-available", prepare);
window.addEventListener("arvis-version", (event) => {
  if (["starting", "placing", "placed"].includes(log.state)) return;  // the session applies it
  log.version = Number(event.detail.version);
  prepare();
});
window.addEventListener("arvis-ar-ended", prepare);
