// The project's planted trees in the AR view: read once (page after page), then kept live from the
// project's room — the same `tree` and `treeRemoved` events the Studio's planting map hears — and
// drawn instanced with each species' model from the server (tree-renderer.js). The trees stand in
// the project's frame; the frame the session found (project-frame.js) places them all at once.
// Nothing here places a tree: every position is the server's.

import { parseGLB } from "../../viewer/glb.js";
import { apiRequest } from "../api-request.js";
import { bakeModel, createTreeRenderer, packInstances } from "./tree-renderer.js";

/// How long a tree in the way of a refused tap stays red, ms.
const redFor = 4000;

/// The trees of `project` on `gl`, kept live from `room` (project-room.js); `token`: the member's,
/// for reading; `catalog`: Map of species name → model path; `on`: {status(text), arrived(trees,
/// at)}. Returns {trees (Map id → tree), upsert(list), remove(id), showInRed(ids),
/// draw(viewProjection, frameToSession, light) → draw calls, dispose()}.
export function treeLayer(gl, { project, room, token, catalog, on }) {
  const trees = new Map(), red = new Map(), gone = new Set(), renderer = createTreeRenderer(gl), loading = new Set();
  let dirty = true, closed = false, loaded = false;

  function upsert(list, at) {
    for (const tree of list) {
      if (!tree || !tree.id || !tree.position) continue;
      trees.set(tree.id, tree);
      if (!renderer.has(tree.species)) loadSpecies(tree.species);
    }
    dirty = true;
    if (on.arrived && at) on.arrived(list, at);
  }

  function remove(id) {
    gone.add(id);
    if (trees.delete(id)) dirty = true;
  }

  function showInRed(ids) {
    const until = performance.now() + redFor;
    for (const id of ids) red.set(id, until);
    dirty = true;
  }

  /// Fetches and bakes a species' model once; a species the catalog does not know is not drawn.
  async function loadSpecies(name) {
    const path = catalog.get(name);
    if (!path || loading.has(name)) return;
    loading.add(name);
    try {
      const response = await fetch(path);
      if (!response.ok) throw new Error("HTTP " + response.status);
      const vertices = bakeModel(parseGLB(await response.arrayBuffer()));
      if (closed) return;
      renderer.species(name, vertices);
      dirty = true;
    } catch (error) {
      on.status(`The model of ${name} did not load (${error.message}): its trees are not drawn.`);
    }
  }

  /// Re-packs each species' instances when the trees (or the red ones) changed.
  function refresh() {
    const now = performance.now();
    for (const [id, until] of red) if (until < now) { red.delete(id); dirty = true; }
    if (!dirty) return;
    dirty = false;
    const bySpecies = new Map();
    for (const tree of trees.values()) {
      if (!bySpecies.has(tree.species)) bySpecies.set(tree.species, []);
      bySpecies.get(tree.species).push(tree);
    }
    for (const name of catalog.keys()) renderer.instances(name, packInstances(bySpecies.get(name) || [], red));
  }

  function draw(viewProjection, frameToSession, light) {
    refresh();
    return renderer.draw(viewProjection, frameToSession, light);
  }

  async function readAll() {
    const list = [];
    // At most 100 pages (a million trees): a server that kept answering `next` cannot hold the page.
    for (let after = null, pages = 0; pages < 100; pages++) {
      const path = `/api/v1/projects/${encodeURIComponent(project)}/trees?limit=10000` + (after ? "&after=" + encodeURIComponent(after) : "");
      const { response, answer: page } = await apiRequest("GET", path, { token });
      if (!response.ok) throw new Error("the project's trees could not be read (HTTP " + response.status + ")");
      list.push(...page.trees);
      if (!page.next) return list;
      after = page.next;
    }
    return list;
  }

  // The first welcome, and one after a gap the room could not replay (its annotations are not null
  // then), is followed by reading every tree again.
  const stop = room.listen((message) => {
    if (message.type === "welcome" && (!loaded || message.annotations !== null)) read(loaded);
    else if (message.type === "tree") upsert([message.tree], performance.timeOrigin + performance.now());
    else if (message.type === "treeRemoved") remove(message.id);
  });

  /// Reads every tree (after the room's welcome, so nothing planted meanwhile is missed: both are
  /// idempotent by id); `reset`: the room missed events, so what was shown is replaced.
  function read(reset) {
    if (reset) gone.clear();  // removals heard while the read is on the way still apply to its answer
    readAll().then((list) => {
      if (closed) return;
      if (reset) { trees.clear(); dirty = true; }
      loaded = true;
      upsert(list.filter((tree) => !trees.has(tree.id) && !gone.has(tree.id)));
    }).catch((error) => on.status(error.message + " (read again on the next join)"));
  }

  if (!room.joins) read(false);

  return {
    trees, upsert, remove, showInRed, draw,
    /// Whether tree `id` was in the last frame drawn.
    isDrawn: (id) => !dirty && trees.has(id) && renderer.has(trees.get(id).species),
    dispose() {
      closed = true;
      stop();
      renderer.dispose();
    },
  };
}
