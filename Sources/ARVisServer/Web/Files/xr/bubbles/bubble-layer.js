// The project's bubbles in the AR view: panes and trails are the project's anchors whose payload says
// so (`{"kind": "pane", …}`, `{"kind": "trail", …}`), stored in the project's frame. Read after the
// room's welcome (again after a gap the room could not replay), kept live from the room's `anchor`
// and `anchorDeleted` events, and drawn as film (film-renderer.js) wherever the session found the
// frame. A pane that goes (the cap passed, an owner's clearing) fades out over a second. Nothing
// here places a bubble: every pose drawn is the server's.

import { decodePoints, isPane, isTrail, paneHeight } from "../../protocol/bubble-payload.js";
import { fromTRS } from "../../viewer/matrix.js";
import { apiRequest } from "../api-request.js";
import { filmRenderer, paneFloats } from "./film-renderer.js";
import { paneSize } from "./pane-mesh.js";
import { trail } from "./trail.js";

/// How long a pane takes to fade out, ms.
export const fadeTime = 1000;

/// A pane's anchor as one instance of the film renderer (`paneFloats`), at `fade`.
export function paneInstance(anchor, fade) {
  const { position, orientation } = anchor.pose, payload = anchor.payload;
  const height = paneHeight(payload);
  const data = new Float32Array(paneFloats);
  data.set(fromTRS(position, orientation, [payload.width / paneSize[0], height / paneSize[1], 1]));
  data.set([1, payload.thicknessOffset || 0, payload.phase || 0, fade], 16);
  return data;
}

/// A trail's ribbon rebuilt from its anchor: the same slices, frames and edges the painting phone
/// built, as the points are the slices' own (already a centimetre apart).
export function ribbonOf(anchor) {
  const ribbon = trail(anchor.payload.up, { spacing: 0 });
  for (const point of decodePoints(anchor.pose.position, anchor.payload.points)) ribbon.add(point);
  return ribbon;
}

/// The bubbles of `project` on `gl`, live from `room` (project-room.js), read with `token`; `on`:
/// {status(text), arrived(anchor, at), fading(id, at)}. Returns {panes, trails (Maps id → anchor), upsert(anchor),
/// remove(id), renderer, draw(view, frameToSession, scene) → draw calls, dispose()}.
export function bubbleLayer(gl, { project, room, token, on }) {
  const renderer = filmRenderer(gl), panes = new Map(), trails = new Map(), fading = new Map(), gone = new Set(), painted = new Map();
  let dirty = true, closed = false, loaded = false;

  function upsert(anchor, at) {
    if (closed || gone.has(anchor.id) || fading.has(anchor.id)) return;
    if (isPane(anchor)) { panes.set(anchor.id, anchor); dirty = true; }
    else if (isTrail(anchor) && !trails.has(anchor.id)) {
      trails.set(anchor.id, { anchor, gpu: renderer.trail(ribbonOf(anchor), anchor.payload.thicknessOffset || 0) });
      // This phone's own trail, stored: its painted ribbon goes as the stored one is drawn.
      const local = painted.get(anchor.payload.clientId);
      if (local) { local.remove(); painted.delete(anchor.payload.clientId); }
    } else return;
    if (on.arrived && at) on.arrived(anchor, at);
  }

  function remove(id) {
    gone.add(id);
    const pane = panes.get(id);
    if (pane) {
      panes.delete(id);
      fading.set(id, { anchor: pane, from: performance.now() });
      dirty = true;
      if (on.fading) on.fading(id, performance.timeOrigin + performance.now());
    }
    const path = trails.get(id);
    if (path) { path.gpu.remove(); trails.delete(id); }
  }

  /// The instances again when panes came, went or are fading.
  function refresh(now) {
    if (!dirty && !fading.size) return;
    dirty = false;
    const list = [];
    for (const anchor of panes.values()) list.push(paneInstance(anchor, 1));
    for (const [id, { anchor, from }] of fading) {
      const left = 1 - (now - from) / fadeTime;
      if (left <= 0) fading.delete(id); else list.push(paneInstance(anchor, left));
    }
    const data = new Float32Array(list.length * paneFloats);
    list.forEach((instance, k) => data.set(instance, k * paneFloats));
    renderer.panes(data);
  }

  async function readAll() {
    const { response, answer } = await apiRequest("GET", `/api/v1/projects/${encodeURIComponent(project)}/anchors`, { token });
    if (!response.ok) throw new Error("the project's bubbles could not be read (HTTP " + response.status + ")");
    return answer.anchors || [];
  }

  /// Reads every anchor (after the room's welcome: both are idempotent by id); `reset`: the room
  /// missed events, so what was shown is replaced. Deletions heard while the read is on the way
  /// still apply to its answer.
  function read(reset) {
    if (reset) gone.clear();
    readAll().then((list) => {
      if (closed) return;
      if (reset) {
        for (const path of trails.values()) path.gpu.remove();
        panes.clear(); trails.clear(); dirty = true;
      }
      loaded = true;
      for (const anchor of list) upsert(anchor);
    }).catch((error) => on.status(error.message + " (read again on the next join)"));
  }

  const stop = room.listen((message) => {
    if (message.type === "welcome" && (!loaded || message.annotations !== null)) read(loaded);
    else if (message.type === "anchor" && message.anchor) upsert(message.anchor, performance.timeOrigin + performance.now());
    else if (message.type === "anchorDeleted") remove(message.id);
  });
  if (!room.joins) read(false);

  return {
    panes, trails, upsert, remove, renderer,
    /// Keeps this phone's ribbon `gpu` (being painted, trail payload `clientId`) until the stored
    /// trail replaces it, or until `gpu.remove()`; returns `gpu`.
    painting(clientId, gpu) {
      painted.set(clientId, gpu);
      const remove = gpu.remove;
      gpu.remove = () => { painted.delete(clientId); remove(); };
      return gpu;
    },
    /// Whether anchor `id` is drawn (a pane or trail the last frame showed), and whether a pane is
    /// still fading out.
    isDrawn: (id) => (!dirty && panes.has(id)) || trails.has(id),
    isFading: (id) => fading.has(id),
    draw(view, frameToSession, scene) {
      refresh(performance.now());
      return renderer.draw(view, frameToSession, scene);
    },
    dispose() { closed = true; stop(); renderer.dispose(); },
  };
}
