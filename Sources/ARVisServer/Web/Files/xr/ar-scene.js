// What the AR view shows of the spec: its scene (scene.json), where each target was put in the
// room, and a quad per widget with its texture. A new version swaps only the textures of the
// widgets it changed; added widgets appear and removed ones go, in the same session.

import { errorMessage } from "./api-request.js";
import { invert } from "./placement.js";
import { drawnQuads, needsRedraw, nodeMatrix, readScene, targetPoses } from "./scene-model.js";
import { placeholderCanvas, labelCanvas } from "./quad-renderer.js";
import { widgetTextures } from "./widget-textures.js";

/// Reads a scene.json URL; throws an Error with the API's message for a spec with no scene.
export async function fetchScene(url) {
  const response = await fetch(url, { cache: "no-cache" });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorMessage(answer, "the scene answered " + response.status));
  return readScene(answer);
}

/// The AR scene of the spec at `base` (`/s/P/NAME`), version `version`, first read as `scene`;
/// `painter` makes GL textures (quad-renderer.js); `log` is window.arvisXR.
export function createARScene({ base, scene, version, painter, log }) {
  const textures = widgetTextures(base);
  log.textureRequests = textures.requests;
  const state = { scene, opened: null, version, world: null, images: {}, poses: {}, quads: new Map(), shown: new Set() };
  let updates = Promise.resolve(), disposed = false;

  /// Starts loading quad `quad`'s texture for version `number`; the old one is drawn until the
  /// new one is in, and stays when `confirmed` resolves false (that version cannot be shown).
  function loadTexture(quad, number, confirmed = Promise.resolve(true)) {
    quad.wanted = number;
    if (quad.kind === "annotation") { swap(quad, painter.texture(labelCanvas(quad.text)), number, "ready"); return; }
    const loading = textures.load(quad.id, number).then((bitmap) => ({ bitmap }), (error) => ({ error }));
    Promise.all([loading, confirmed]).then(([result, shown]) => {
      const current = !disposed && quad.wanted === number && state.quads.get(quad.id) === quad;
      if (current && !shown) quad.wanted = quad.textureVersion;
      else if (current && result.bitmap) swap(quad, painter.texture(result.bitmap), number, "ready");
      else if (current) swap(quad, painter.texture(placeholderCanvas(quad.id, result.error.message)), number, "placeholder");
      if (result.bitmap) result.bitmap.close();
    });
  }

  function swap(quad, texture, number, status) {
    if (quad.texture) painter.forget(quad.texture);
    Object.assign(quad, { texture, status, textureVersion: number, drawnVersion: null });
  }

  /// Adds (or refreshes) the quad of node `node`.
  function upsert(node, redraw) {
    let quad = state.quads.get(node.id);
    if (!quad) {
      quad = { id: node.id, kind: node.kind, parent: node.parent, text: node.text, texture: null, status: "loading", matrix: null };
      state.quads.set(node.id, quad);
      redraw = true;
    }
    quad.size = node.size;
    if (quad.kind === "annotation" && quad.text !== node.text) redraw = true;
    quad.text = node.text;
    if (redraw && quad.wanted !== state.version) loadTexture(quad, state.version);
  }

  function drop(id) {
    const quad = state.quads.get(id);
    if (quad && quad.texture) painter.forget(quad.texture);
    textures.forget(id);
    state.quads.delete(id);
    state.shown.delete(id);
  }

  /// The scene a node's pose is read from: link children's from the scene with links open.
  const sceneOf = (id) => state.scene.nodes.has(id) ? state.scene : state.opened;

  /// Recomputes every quad's room matrix from the placements.
  function place() {
    state.poses = targetPoses(state.scene, state.world, state.images);
    const openedPoses = state.opened ? targetPoses(state.opened, state.world, state.images) : null;
    for (const quad of state.quads.values()) {
      const from = sceneOf(quad.id);
      quad.matrix = from ? nodeMatrix(from, quad.id, from === state.scene ? state.poses : openedPoses, state.world) : null;
      quad.inverse = quad.matrix ? invert(quad.matrix) : null;
    }
  }

  /// Applies a saved version: its scene (and links-open scene, if one is open) and the widgets
  /// the stream says were redrawn.
  async function apply(message) {
    // The changed widgets' new pictures are fetched at once, beside the new scene, and shown
    // once that scene reads.
    let confirm;
    const confirmed = new Promise((resolve) => { confirm = resolve; });
    // Widgets only moved keep their pictures (older servers send no `redrawn`: all changed).
    const changed = new Set(message.redrawn || message.changed || []);
    for (const id of changed) { const quad = state.quads.get(id); if (quad) loadTexture(quad, message.version, confirmed); }
    let next, opened;
    try {
      [next, opened] = await Promise.all([fetchScene(`${base}/scene.json`), state.opened ? fetchScene(`${base}/scene.json?links=open`) : null]);
    } catch (error) {
      confirm(false);
      throw error;
    }
    confirm(true);
    state.version = message.version;
    const before = state.scene;
    state.scene = next;
    state.opened = opened || state.opened;  // open() may have read it meanwhile
    for (const id of message.removed || []) drop(id);
    const wanted = new Set(drawnQuads(next).map((node) => node.id));
    for (const id of [...state.quads.keys()]) {
      if (!wanted.has(id) && !(state.shown.has(id) && opened && opened.nodes.has(id))) drop(id);
    }
    for (const node of drawnQuads(next)) upsert(node, needsRedraw(node.id, changed, before));
    for (const id of state.shown) {
      const node = opened && opened.nodes.get(id);
      if (node) upsert(node, needsRedraw(id, changed, next));
    }
    place();
  }

  for (const node of drawnQuads(scene)) upsert(node, true);

  return {
    state,
    textures,
    place,
    /// The room matrix of the current scene's node `id`, or null while its target is not placed.
    matrixOf: (id) => nodeMatrix(state.scene, id, state.poses, state.world),
    /// Puts the scene's origin at `world`, and image targets at their quad frames `images`.
    setPlacement(world, images) { state.world = world; state.images = images; place(); },

    /// Applies saved versions one after another, in order; an older one arriving late, or one
    /// after the session ended, is skipped.
    update(message) {
      updates = updates.catch(() => {}).then(() => disposed || Number(message.version) <= Number(state.version) ? undefined : apply(message));
      return updates;
    },

    /// Draws again, with their new rows, the widgets whose charts follow a dataset that grew: at
    /// most about four times a second each, however fast rows arrive.
    redrawRows(ids) {
      for (const id of ids) {
        const quad = state.quads.get(id);
        if (!quad || quad.rowsPending) continue;
        quad.rowsPending = true;
        setTimeout(() => { quad.rowsPending = false; if (!disposed) loadTexture(quad, state.version); }, 250);
      }
    },

    /// Shows child widget `id`, which a widget's `openComponent` link opens, where
    /// scene.json?links=open puts it; false when that scene has no such widget.
    async open(id) {
      if (!state.opened) state.opened = await fetchScene(`${base}/scene.json?links=open`);
      const node = state.opened.nodes.get(id);
      if (!node || node.kind !== "widget" || !Array.isArray(node.size)) return false;
      state.shown.add(id);
      upsert(node, !state.quads.has(id));
      place();
      return true;
    },

    /// Forgets every texture (the session ended).
    dispose() { disposed = true; for (const id of [...state.quads.keys()]) drop(id); },
  };
}
