// The project's planted trees in the AR view: read once (page after page), then kept live from the
// project's room — the same `tree` and `treeRemoved` events the Studio's planting map hears — and
// drawn instanced with each species' model from the server (tree-renderer.js). The trees stand in
// the project's frame; the frame the session found (project-frame.js) places them all at once.
// Nothing here places a tree: every position is the server's.

import { parseGLB } from "../../viewer/glb.js";
import { lastSeen, readRoomFrame, reconnectDelay, refusedClose, roomProtocols, roomURL } from "../../protocol/room-protocol.js";
import { apiRequest } from "../api-request.js";
import { bakeModel, createTreeRenderer, packInstances } from "./tree-renderer.js";

/// How long a tree in the way of a refused tap stays red, ms.
const redFor = 4000;

/// How long to wait before joining the room again after a refusal, ms.
const refusedRetry = 30000;

/// The trees of `project` on `gl`. `access`: {token, link, room} as the page joins rooms;
/// `catalog`: Map of species name → model path; `on`: {status(text), arrived(trees, at)}.
/// Returns {trees (Map id → tree), upsert(list), remove(id), showInRed(ids), draw(viewProjection,
/// frameToSession, light) → draw calls, dispose()}.
export function treeLayer(gl, { project, access, catalog, on }) {
  const trees = new Map(), red = new Map(), gone = new Set(), renderer = createTreeRenderer(gl), loading = new Set();
  let dirty = true, socket = null, closed = false, since = null, retry = 0, timer = 0, state = "joining", loaded = false;

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
      const { response, answer: page } = await apiRequest("GET", path, { token: access.token });
      if (!response.ok) throw new Error("the project's trees could not be read (HTTP " + response.status + ")");
      list.push(...page.trees);
      if (!page.next) return list;
      after = page.next;
    }
    return list;
  }

  function connect() {
    if (closed || (!access.token && !access.link)) return;
    const protocols = access.link ? ["arvis", "arvis.link." + access.link] : roomProtocols(access.token);
    socket = new WebSocket(roomURL(location.protocol, location.host, project, access.room, since), protocols);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => { retry = 0; state = "live"; on.status("live"); };
    socket.onmessage = (event) => {
      const frame = readRoomFrame(event.data);
      if (!frame || !frame.message) return;
      const message = frame.message;
      since = lastSeen(since, message);
      // The first welcome, and one after a gap the room could not replay (its annotations are not
      // null then), is followed by reading every tree again.
      if (message.type === "welcome" && (!loaded || message.annotations !== null)) read(loaded);
      else if (message.type === "tree") upsert([message.tree], performance.timeOrigin + performance.now());
      else if (message.type === "treeRemoved") remove(message.id);
    };
    socket.onclose = (event) => {
      socket = null;
      if (closed) return;
      // Refused (or access revoked): asked again now and then, as access can come back.
      const refused = refusedClose(event.code);
      state = refused ? "refused" : "reconnecting";
      on.status(refused ? "refused: " + (event.reason || "no access to the project's room") : "reconnecting");
      timer = setTimeout(connect, refused ? refusedRetry : reconnectDelay(retry++));
    };
  }

  /// Reads every tree (after the room's welcome, so nothing planted meanwhile is missed: both are
  /// idempotent by id); `reset`: the room missed events, so what was shown is replaced.
  function read(reset) {
    readAll().then((list) => {
      if (closed) return;
      if (reset) { trees.clear(); gone.clear(); dirty = true; }
      loaded = true;
      upsert(list.filter((tree) => !trees.has(tree.id) && !gone.has(tree.id)));
    }).catch((error) => on.status(error.message + " (read again on the next join)"));
  }

  connect();
  if (!access.token && !access.link) read(false);

  return {
    trees, upsert, remove, showInRed, draw,
    /// Whether tree `id` was in the last frame drawn.
    isDrawn: (id) => !dirty && trees.has(id) && renderer.has(trees.get(id).species),
    /// The room's state: "joining", "live", "reconnecting" or "refused".
    state: () => state,
    dispose() {
      closed = true;
      clearTimeout(timer);
      if (socket) socket.close(1000, "left AR");
      renderer.dispose();
    },
  };
}
