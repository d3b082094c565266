// The Place tool: the spec's environment in the room. A tap on the reticle places the environment
// (held by an anchor where the browser has them); image targets follow their tracked pictures where
// the browser tracks images, or take a tap each. Widgets are quads at scene.json's poses with the
// hub's PNGs; the spec's saves swap their textures live; a tap on a widget opens its controls and
// links; gallery models the spec places are drawn with the orbit viewer's renderer.

import { multiply, transformPoint } from "../../viewer/matrix.js";
import { createARScene } from "../ar-scene.js";
import { imageFrameOnHit, invert, positionOf, quadOfImage, worldPlacement } from "../placement.js";
import { panelRect, widgetPanel } from "../widget-panel.js";
import { syncModels } from "./place-models.js";
import { pictureOf } from "./place-prepare.js";

/// The Place tool of session core `ar` for the scene read ahead (`ready`: {scene, images, version}).
export function placeTool(ar, ready) {
  const { log, say, banner, $ } = ar;
  const view = createARScene({ base: ar.base, scene: ready.scene, version: ready.version, painter: ar.painter, log });
  const tracked = trackedTargets(ar.trackedScores, ready.images);
  const pictures = new Map(ready.images.map((image) => [image.id, image.picture]));
  const panel = widgetPanel($("ar-panel"), ar.base, () => { log.panel = null; });
  const place = { world: null, images: {}, anchors: {}, placeRequested: false, placing: 0, models: new Map(), explanation: "" };
  log.imageTracking = tracked.size > 0;
  log.trackedTargets = [...tracked.values()];
  // Every quad the scene holds is drawn: widgets of the scene, and link children once opened.
  log.quads = () => [...view.state.quads.values()].filter((quad) => quad.matrix).map((quad) => ({ id: quad.id, kind: quad.kind, parent: quad.parent, matrix: Array.from(quad.matrix), size: quad.size, texture: quad.status, visible: true }));

  const scene = () => view.state.scene, trackedIds = () => new Set(tracked.values());
  const nextImage = () => scene().images.find((id) => !place.images[id] && !trackedIds().has(id));
  /// Whether a tap places something: the environment, or an image target no picture places.
  const tapPlaces = () => (scene().needsWorld && !place.world) || !!nextImage();

  /// Says on screen how each kind of target gets its place in this browser.
  function explainTargets() {
    const notes = [], untracked = scene().images.filter((id) => !trackedIds().has(id));
    if (tracked.size) notes.push(`${tracked.size} image target(s) follow their pictures: point the camera at them.`);
    if (untracked.length) notes.push(`${untracked.length} image target(s) are placed by a tap each (${ar.features.includes("image-tracking") ? "their pictures are not on this server" : "this browser does not track images"}).`);
    if (scene().targets.some((node) => /^object\d+$/.test(node.id))) notes.push("Object targets are not tracked in a browser: they stand where the scene lays them out around the placed origin.");
    if (scene().targets.some((node) => node.id.startsWith("geo-"))) notes.push("Geo anchors stand around the placed origin as they do around the first one (no GPS in WebXR).");
    place.explanation = notes.join(" ");
  }

  /// Whether every target has its place; sets the state and what the status line asks for.
  function setPlacing() {
    const waitingWorld = scene().needsWorld && !place.world, next = nextImage();
    const unseen = scene().images.filter((id) => trackedIds().has(id) && !place.images[id]);
    if (waitingWorld) say("Aim at the floor and tap to place the environment. " + place.explanation);
    else if (next) say(`Aim at the wall or table where ${next}'s picture is and tap to place it (${scene().nodes.get(next).size[0]} m wide).`);
    else if (unseen.length) say("Point the camera at the image target(s): " + unseen.join(", "));
    else if (log.state !== "placed") say("");
    log.state = waitingWorld || next || unseen.length ? "placing" : "placed";
  }

  function updatePlacement() {
    view.setPlacement(place.world, place.images);
    log.placements = { ...view.state.poses };
    if (place.world) log.placements.world = Array.from(place.world);
  }

  /// Moves tracked image targets and anchored placements to where the browser now sees them.
  function followTracking(frame) {
    let moved = false;
    if (tracked.size && frame.getImageTrackingResults) {
      for (const result of frame.getImageTrackingResults()) {
        const id = tracked.get(result.index);
        if (!id || result.trackingState !== "tracked") continue;
        const image = frame.getPose(result.imageSpace, ar.space);
        if (image) { place.images[id] = quadOfImage(image.transform.matrix); moved = true; }
      }
    }
    for (const [key, held] of Object.entries(place.anchors)) {
      if (!frame.trackedAnchors || !frame.trackedAnchors.has(held.anchor)) continue;
      const anchored = frame.getPose(held.anchor.anchorSpace, ar.space);
      if (!anchored) continue;
      const placed = Array.from(multiply(anchored.transform.matrix, held.offset));
      const previous = key === "world" ? place.world : place.images[key];
      // An anchor's pose trembles a little every frame: under half a millimetre it stays put.
      if (previous && placed.every((value, index) => Math.abs(value - previous[index]) < 5e-4)) continue;
      if (key === "world") place.world = placed; else place.images[key] = placed;
      moved = true;
    }
    if (moved) { updatePlacement(); if (log.state === "placing") setPlacing(); }
  }

  /// Puts the next unplaced target where the reticle is, held by an anchor where there are anchors.
  function placeAt(hit) {
    if (!hit) { say("No surface found yet: move the phone slowly over the floor or a wall."); return; }
    const h = hit.matrix, viewer = positionOf(ar.viewer);
    let key;
    if (scene().needsWorld && !place.world) { key = "world"; place.world = worldPlacement(h, viewer); }
    else {
      key = nextImage();
      if (!key) return;
      place.images[key] = quadOfImage(imageFrameOnHit(h, viewer));
    }
    const placed = key === "world" ? place.world : place.images[key];
    if (ar.features.includes("anchors") && hit.result.createAnchor) {
      // An anchor that arrives after Place again (or the session's end) belongs to nothing: dropped.
      const placing = place.placing;
      hit.result.createAnchor().then((anchor) => {
        if (ar.ended || place.placing !== placing) { if (anchor.delete) anchor.delete(); return; }
        place.anchors[key] = { anchor, offset: Array.from(multiply(invert(h), placed)) };
      }, () => { /* no anchor: the pose stays where it was put */ });
    }
    updatePlacement();
    setPlacing();
    ar.addPlane({ point: positionOf(h), normal: [h[4], h[5], h[6]] });
  }

  /// A tap: places the next target while placing; afterwards a tap on a widget opens its controls or links.
  async function select(event) {
    if (log.state === "placing" && tapPlaces()) { place.placeRequested = true; return; }
    const ray = event.frame.getPose(event.inputSource.targetRaySpace, ar.space);
    if (!ray) return;
    const m = ray.transform.matrix, hit = castRay([m[12], m[13], m[14]], [-m[8], -m[9], -m[10]]);
    if (!hit) { if (panel.open) { panel.close(); log.panel = null; } return; }
    const quad = view.state.quads.get(hit.id);
    const corners = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([x, y]) => ar.toScreen(transformPoint(quad.matrix, [x * quad.size[0], y * quad.size[1], 0])));
    const answer = await panel.tap(hit.id, view.state.version, hit.u, hit.v, panelRect(corners, innerWidth, innerHeight)).catch(() => ({ kind: "none" }));
    if (ar.ended) return;
    log.panel = panel.open;
    if (answer.kind === "link") {
      const shown = await view.open(answer.child).catch(() => false);
      say(shown ? "" : "That link's widget is not in this scene (a url= link the server does not fetch)");
    }
  }

  /// The nearest drawn widget along a ray, with where it was hit ([0…1] from its top left).
  function castRay(origin, direction) {
    let best = null;
    for (const quad of view.state.quads.values()) {
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

  function frame(xrFrame) {
    followTracking(xrFrame);
    // A tap asks for a placement; it is made here, in a frame, where the hit can take an anchor.
    if (place.placeRequested) { place.placeRequested = false; if (log.state === "placing" && tapPlaces()) placeAt(ar.hit); }
  }

  /// The gallery models, each with the orbit viewer's renderer (its own program).
  function draw({ viewMatrix, projection }) {
    for (const [id, model] of place.models) {
      const matrix = model.renderer && view.matrixOf(id);
      if (matrix) model.renderer.render(viewMatrix, projection, matrix, ar.light);
    }
  }

  /// The widgets' quads, in the quad painter's pass.
  function drawQuads() {
    let allReady = true;
    ar.gl.enable(ar.gl.DEPTH_TEST);
    for (const quad of view.state.quads.values()) {
      if (!quad.matrix) continue;
      if (!quad.texture) { allReady = false; continue; }
      ar.painter.quad(quad.matrix, quad.size, quad.texture);
      if (quad.drawnVersion !== quad.textureVersion) {
        quad.drawnVersion = quad.textureVersion;
        log.textureUpdates.push({ id: quad.id, version: quad.textureVersion, at: ar.now() });
      }
    }
    ar.gl.disable(ar.gl.DEPTH_TEST);
    if (log.state === "placed" && allReady && !log.timings.placed) log.timings.placed = ar.now();
  }

  /// A saved version: swaps the changed widgets' textures in place; a version that no longer lays
  /// out keeps the last good one on screen, with a banner.
  async function applyVersion(message) {
    try {
      await view.update(message);
      if (ar.ended) return;
      log.version = message.version;
      untrackChangedPictures();
      syncModels(ar, view, place.models);
      banner("");
      setPlacing();
    } catch (error) {
      if (ar.ended) return;
      banner(`Version ${message.version} cannot be shown in AR (${error.message}); showing version ${view.state.version}.`);
    }
  }

  /// Stops following the tracked image targets whose picture or width a saved version changed (or
  /// removed): the session tracks the pictures it started with, by index. They stay where last seen.
  function untrackChangedPictures() {
    for (const [index, id] of tracked) {
      const node = scene().nodes.get(id);
      if (node && Array.isArray(node.size) && pictureOf(node) === pictures.get(id)) continue;
      tracked.delete(index);
      say(`${id}: its picture changed, and this session tracks the one it started with: it stays where it was seen (enter AR again to track the new picture).`);
    }
    log.trackedTargets = [...tracked.values()];
  }

  /// "Place again": forgets every placement and its anchors.
  function replace() {
    Object.values(place.anchors).forEach((held) => held.anchor.delete && held.anchor.delete());
    Object.assign(place, { anchors: {}, world: null, images: {}, placing: place.placing + 1 });
    updatePlacement();
    setPlacing();
  }

  explainTargets();
  setPlacing();
  syncModels(ar, view, place.models);
  return {
    name: "place", select, frame, draw, drawQuads, applyVersion, replace, setPlacing,
    redrawRows: (widgets) => view.redrawRows(widgets),
    reticle: () => (log.state === "placing" && tapPlaces() ? "any" : null),
    dispose() { panel.close(); view.dispose(); log.quads = () => []; },
  };
}

/// The image targets the session tracks, by the index it reports them with → target id.
function trackedTargets(scores, images) {
  const tracked = new Map();
  images.forEach((image, index) => { if (scores[index] === "trackable") tracked.set(index, image.id); });
  return tracked;
}
