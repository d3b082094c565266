// What a signed-in member's AR session shows of the project itself, beside the spec: the project's
// frame (found by marker, anchor, taps or GPS) and the trees planted and bubbles blown in it, live
// from the project's room. Read ahead of Enter AR: the member's role, the project's location, the
// species catalog and the marker's picture.
// Without a member's token on this phone there is nothing to read: the spec alone is shown.

import { apiRequest } from "./api-request.js";
import { bubbleLayer } from "./bubbles/bubble-layer.js";
import { prepareMarker, projectFrame } from "./frame/project-frame.js";
import { positionOf } from "./placement.js";
import { projectRoom } from "./project-room.js";
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
  const room = projectRoom({ project: ar.project, access, status: (text) => {
    const shown = $("ar-status").textContent.startsWith("The project's room:");
    log.trees.status = text;
    if (text !== "live") ar.say("The project's room: " + text); else if (shown) ar.say("");
  } });
  const trees = treeLayer(ar.gl, { project: ar.project, room, token: prepared.token, catalog, on: {
    status: (text) => ar.say("Planted trees: " + text),
    arrived: (list, at) => {
      for (const tree of list) {
        const arrival = { id: tree.id, at, drawnAt: null };
        log.trees.arrivals.push(arrival);
        undrawn.push(arrival);
      }
      if (log.trees.arrivals.length > 2000) log.trees.arrivals.splice(0, 1000);
    },
  } });
  log.bubbleArrivals = [];
  log.bubbleFades = [];
  let bubblesUndrawn = [];
  const bubbles = bubbleLayer(ar.gl, { project: ar.project, room, token: prepared.token, on: {
    status: (text) => ar.say("Bubbles: " + text),
    arrived: (anchor, at) => {
      const arrival = { id: anchor.id, kind: anchor.payload.kind, at, drawnAt: null };
      log.bubbleArrivals.push(arrival);
      bubblesUndrawn.push(arrival);
      if (log.bubbleArrivals.length > 2000) log.bubbleArrivals.splice(0, 1000);
    },
    fading: (id, at) => { log.bubbleFades.push({ id, at }); if (log.bubbleFades.length > 2000) log.bubbleFades.splice(0, 1000); },
  } });
  log.bubblesShown = () => ({ panes: [...bubbles.panes.keys()], trails: [...bubbles.trails.keys()], fading: [...log.bubbleFades.map((f) => f.id)].filter((id) => bubbles.isFading(id)) });
  // The film's test switch (film-renderer.js), off unless a check turns it on.
  log.bubbleTest = (switches) => bubbles.renderer.test(switches);
  bar.hidden = false;
  $("ar-align-geo").hidden = !prepared.location;
  $("ar-align-taps").onclick = () => $("ar-align-taps").setAttribute("aria-pressed", String(frame.beginTaps()));
  $("ar-align-geo").onclick = () => frame.alignByGeo();
  // What the check and anyone debugging reads: each tree where it stands in this session.
  log.treesDrawn = () => [...trees.trees.values()].map((tree) => ({ id: tree.id, species: tree.species, scale: tree.scale, yaw: tree.yaw, group: tree.group,
    position: [tree.position.x, tree.position.y || 0, tree.position.z], drawn: trees.isDrawn(tree.id) }));

  return {
    frame, trees, bubbles, room,
    /// A tap while aligning by taps (at the reticle's hit, or null).
    tap(hit) {
      frame.tap(hit);
      if (!frame.tapping) $("ar-align-taps").setAttribute("aria-pressed", "false");
    },
    onFrame(xrFrame) { frame.frame(xrFrame); },
    /// The bubbles' film, translucent: drawn after everything else.
    drawFilm(view) {
      if (!frame.matrix) return;
      log.bubbleDrawCalls = bubbles.draw(view, frame.matrix, { time: performance.now() / 1000, light: ar.lighting(), eye: positionOf(ar.viewer) });
      if (!bubblesUndrawn.length) return;
      const now = ar.now();
      bubblesUndrawn = bubblesUndrawn.filter((arrival) => {
        if (bubbles.isDrawn(arrival.id)) arrival.drawnAt = now;
        return !arrival.drawnAt && (bubbles.panes.has(arrival.id) || bubbles.trails.has(arrival.id));
      });
    },
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
    dispose() { bar.hidden = true; frame.dispose(); trees.dispose(); bubbles.dispose(); room.dispose(); },
  };
}
