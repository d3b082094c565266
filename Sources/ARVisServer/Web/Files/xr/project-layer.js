// What a signed-in member's AR session shows of the project itself, beside the spec: the project's
// frame (found by marker, anchor, taps or GPS) and the trees planted in it, live. Read ahead of Enter
// AR: the member's role, the project's location, the species catalog and the marker's picture.
// Without a member's token on this phone there is nothing to read: the spec alone is shown.

import { apiRequest } from "./api-request.js";
import { prepareMarker, projectFrame } from "./frame/project-frame.js";
import { treeLayer } from "./trees/tree-layer.js";

/// The project as this member sees it, or null for a visitor: {token, role, location, species, marker}.
export async function prepareProject(project) {
  const token = localStorage.getItem("arvis.token");
  if (!token) return null;
  const [member, catalog] = await Promise.all([apiRequest("GET", `/api/v1/projects/${encodeURIComponent(project)}`, { token }), apiRequest("GET", "/api/v1/species")]);
  if (!member.response.ok || !catalog.response.ok) return null;
  const info = member.answer;
  return { token, role: info.role || null, location: info.location || null, species: catalog.answer.species, marker: await prepareMarker(project).catch(() => null) };
}

/// The project's frame and trees in session core `ar`, for `prepared` (prepareProject's answer);
/// `markerIndex`: the marker's index among the session's tracked images, or -1.
export function projectLayer(ar, prepared, markerIndex) {
  const { $, log } = ar, bar = $("ar-frame-bar"), line = $("ar-frame");
  const access = { token: prepared.token, link: null, room: "planting" };
  log.frame = { method: "none", markerTracked: markerIndex >= 0 };
  log.trees = { arrivals: [], drawCalls: 0, status: null };
  // Arrivals not drawn yet: the only ones a frame looks at (a tree removed first is dropped).
  let undrawn = [];
  const frame = projectFrame(ar, { project: ar.project, markerIndex, location: prepared.location, access, show: (text) => { line.textContent = text; log.frame.shown = text; }, log: log.frame });
  const catalog = new Map(prepared.species.filter((entry) => entry.model).map((entry) => [entry.latinName, entry.model]));
  const trees = treeLayer(ar.gl, { project: ar.project, access, catalog, on: {
    status: (text) => {
      const shown = $("ar-status").textContent.startsWith("Planted trees:");
      log.trees.status = text;
      if (text !== "live") ar.say("Planted trees: " + text); else if (shown) ar.say("");
    },
    arrived: (list, at) => {
      for (const tree of list) {
        const arrival = { id: tree.id, at, drawnAt: null };
        log.trees.arrivals.push(arrival);
        undrawn.push(arrival);
      }
      if (log.trees.arrivals.length > 2000) log.trees.arrivals.splice(0, 1000);
    },
  } });
  bar.hidden = false;
  $("ar-align-geo").hidden = !prepared.location;
  $("ar-align-taps").onclick = () => $("ar-align-taps").setAttribute("aria-pressed", String(frame.beginTaps()));
  $("ar-align-geo").onclick = () => frame.alignByGeo();
  // What the check and anyone debugging reads: each tree where it stands in this session.
  log.treesDrawn = () => [...trees.trees.values()].map((tree) => ({ id: tree.id, species: tree.species, scale: tree.scale, yaw: tree.yaw, group: tree.group,
    position: [tree.position.x, tree.position.y || 0, tree.position.z], drawn: trees.isDrawn(tree.id) }));

  return {
    frame, trees,
    /// A tap while aligning by taps (at the reticle's hit, or null).
    tap(hit) {
      frame.tap(hit);
      if (!frame.tapping) $("ar-align-taps").setAttribute("aria-pressed", "false");
    },
    onFrame(xrFrame) { frame.frame(xrFrame); },
    draw(viewProjection) {
      if (!frame.matrix) return;
      log.trees.drawCalls = trees.draw(viewProjection, frame.matrix, ar.lighting());
      if (!undrawn.length) return;
      const now = ar.now();
      undrawn = undrawn.filter((arrival) => {
        if (trees.isDrawn(arrival.id)) arrival.drawnAt = now;
        return !arrival.drawnAt && trees.trees.has(arrival.id);
      });
    },
    dispose() { bar.hidden = true; frame.dispose(); trees.dispose(); },
  };
}
