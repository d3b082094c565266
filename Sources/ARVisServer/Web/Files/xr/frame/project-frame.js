// The project's frame in this AR session (docs/webxr.md, "The project's frame"): the transform from
// the frame every device stores things in into this session's, found — best first — by the
// project's printed marker (WebXR image tracking), by this device's persistent anchor from an
// earlier alignment, by two taps (the marker's centre, then a point along its top edge), or by geo
// alignment (a GPS fix and the compass, solved by the server). The overlay always says which is in
// force and how good it is.

import { apiRequest, errorMessage } from "../api-request.js";
import { invert, positionOf } from "../placement.js";
import { currentFix, followCompass } from "./geo-reading.js";
import { markerSighting, markerWidth, meanFrame } from "./marker-frame.js";

/// The marker's picture for image tracking, read ahead of Enter AR: {image, widthInMeters}, or null.
export async function prepareMarker(project) {
  const picture = new Image();
  picture.src = `/s/${encodeURIComponent(project)}/marker.png`;
  await picture.decode();
  return { image: await createImageBitmap(picture), widthInMeters: markerWidth };
}

/// How many sightings of the marker settle an alignment (the device's anchor is kept then: 5 s at
/// 60 Hz), and how many are averaged (the tracker's noise shrinks as their square root).
const settled = 300, kept = 600;

/// The frame of session `ar` for `project`. `markerIndex`: the marker's index among the session's
/// tracked images (-1: not tracked); `location`: the project's, or null; `access`: {token};
/// `show(text)`: the overlay's alignment line; `log`: arvisXR.frame.
export function projectFrame(ar, { project, markerIndex, location, access, show, log }) {
  const anchorKey = "arvis.frameAnchor:" + project, compass = followCompass();
  const state = { matrix: null, inverse: null, method: "none", error: null, taps: [], tapping: 0, sightings: [], anchor: null, anchorMade: false, tapAnchor: null };
  let ignoredNote = "", shownAt = 0;

  function set(method, matrix, error, quality) {
    const changed = method !== state.method;
    Object.assign(state, { method, matrix: Float32Array.from(matrix), inverse: Float32Array.from(invert(matrix)), error });
    Object.assign(log, { method, quality, error, matrix: Array.from(matrix), alignedAt: performance.timeOrigin + performance.now() });
    // The line is read aloud (aria-live): rewritten when the method changes, else twice a second at most.
    if (changed || performance.now() - shownAt > 500) { shownAt = performance.now(); show(`Frame: ${quality}`); }
  }

  /// The ways this session has to find the frame, for the overlay.
  const ways = () => [markerIndex >= 0 ? "point the camera at the project's marker" : null, location ? "Align by GPS" : null, "Align by taps"].filter(Boolean).join(", or ");

  function describeNone() {
    show("Frame: not found yet — " + ways() + "." + (ignoredNote ? " " + ignoredNote : ""));
  }

  /// This device's kept anchor for the project, or null (a damaged entry is dropped).
  function storedAnchor() {
    try { return JSON.parse(localStorage.getItem(anchorKey) || "null"); } catch (error) { localStorage.removeItem(anchorKey); return null; }
  }

  /// Each frame: the marker's sightings, the restored anchor's pose, a new anchor once settled.
  function frame(xrFrame) {
    if (markerIndex >= 0 && xrFrame.getImageTrackingResults) followMarker(xrFrame);
    if (state.anchor && (state.method === "none" || state.method === "anchor") && xrFrame.trackedAnchors && xrFrame.trackedAnchors.has(state.anchor.anchor)) {
      const pose = xrFrame.getPose(state.anchor.anchor.anchorSpace, ar.space);
      if (pose) set("anchor", pose.transform.matrix, state.anchor.error, `this device's anchor (kept ${state.anchor.quality}; found again by the device, which may add centimetres)`);
    }
    if (!state.anchorMade && ((state.method === "marker" && state.sightings.length >= settled) || state.method === "taps")) keepAnchor(xrFrame);
  }

  function followMarker(xrFrame) {
    for (const result of xrFrame.getImageTrackingResults()) {
      if (result.index !== markerIndex || result.trackingState !== "tracked") continue;
      const pose = xrFrame.getPose(result.imageSpace, ar.space);
      if (!pose) continue;
      const sighting = markerSighting(pose.transform.matrix, result.measuredWidthInMeters);
      if (sighting.ignored) { ignoredNote = sighting.ignored; log.ignored = (log.ignored || 0) + 1; if (state.method === "none") describeNone(); else show(`Frame: ${log.quality} · ${sighting.ignored}`); continue; }
      state.sightings.push(sighting);
      if (state.sightings.length > kept) state.sightings.shift();
      const mean = meanFrame(state.sightings);
      log.sightings = state.sightings.length;
      const count = state.sightings.length, hold = count < settled ? `, hold still: ${count} of ${settled} sightings` : `, ${count} sightings`;
      set("marker", mean.matrix, mean.error, `the marker (±${(mean.error * 100).toFixed(1)} cm, ±${mean.degrees.toFixed(2)}°${hold})`);
    }
  }

  /// Keeps one anchor at the frame's origin for this device, persistent where the browser offers it;
  /// a refusal is normal (the next session aligns again).
  function keepAnchor(xrFrame) {
    state.anchorMade = true;
    if (!ar.features.includes("anchors") || !xrFrame.createAnchor) return;
    const matrix = state.matrix, [x, y, z] = positionOf(matrix), yaw = Math.atan2(matrix[8], matrix[10]);
    const quality = log.quality, method = state.method, error = state.error;
    if (state.tapAnchor && state.tapAnchor.delete) state.tapAnchor.delete();
    state.tapAnchor = null;
    xrFrame.createAnchor(new XRRigidTransform({ x, y, z }, { x: 0, y: Math.sin(yaw / 2), z: 0, w: Math.cos(yaw / 2) }), ar.space).then(async (anchor) => {
      if (ar.ended) return;
      state.tapAnchor = anchor;
      if (!anchor.requestPersistentHandle) { log.anchor = "not persistent (this browser keeps anchors for one session)"; return; }
      const previous = storedAnchor();
      try {
        const handle = await anchor.requestPersistentHandle();
        localStorage.setItem(anchorKey, JSON.stringify({ handle, quality: `after ${method === "marker" ? "the marker" : "two taps"} at ${quality.replace(/^.*?\((.*)\)$/, "$1")}`, error }));
        if (previous && previous.handle !== handle && ar.session.deletePersistentAnchor) ar.session.deletePersistentAnchor(previous.handle).catch(() => {});
        log.anchor = "kept";
      } catch (refusal) {
        log.anchor = "refused: " + refusal.message;
      }
    }, (refusal) => { log.anchor = "not made: " + refusal.message; });
  }

  /// Restores this device's anchor from an earlier session, where the browser keeps them.
  function restoreAnchor() {
    const stored = storedAnchor();
    if (!stored || !ar.features.includes("anchors") || !ar.session.restorePersistentAnchor) return;
    ar.session.restorePersistentAnchor(stored.handle).then((anchor) => {
      state.anchor = { anchor, quality: stored.quality, error: stored.error };
      log.anchor = "restored";
    }, (refusal) => { localStorage.removeItem(anchorKey); log.anchor = "not restored: " + refusal.message; });
  }

  /// Starts (or cancels) alignment by two taps.
  function beginTaps() {
    state.tapping = state.tapping ? 0 : 1;
    state.taps = [];
    if (state.tapping) show("Frame: tap the marker's centre on the ground (or where the project's origin is).");
    else if (state.method === "none") describeNone(); else show(`Frame: ${log.quality}`);
    return state.tapping > 0;
  }

  /// A tap while aligning by taps, at hit pose `hit` (or null off any surface).
  function tap(hit) {
    if (!hit) { show("Frame: no ground there — aim at the floor until the reticle shows, then tap."); return; }
    state.taps.push(positionOf(hit.matrix));
    if (state.taps.length === 1) { show("Frame: now tap a point along the marker's top edge (the frame's −z), a metre or more away."); return; }
    const [p0, p1] = state.taps, dx = p1[0] - p0[0], dz = p1[2] - p0[2], length = Math.hypot(dx, dz);
    state.tapping = 0;
    if (length < 0.2) { state.taps = []; show("Frame: the two taps were too close together (under 20 cm): Align by taps again."); return; }
    // The frame's +z points from the second tap back to the first.
    const yaw = Math.atan2(-dx, -dz), c = Math.cos(yaw), s = Math.sin(yaw), tapError = 0.05;
    state.anchorMade = false;
    set("taps", [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, p0[0], p0[1], p0[2], 1], tapError,
      `two taps (±${tapError * 100} cm, ±${(Math.atan2(tapError, length) * 180 / Math.PI).toFixed(1)}°)`);
  }

  /// Geo alignment: one fix and the compass, with this session's pose now, solved by the server.
  async function alignByGeo() {
    if (!location) { show("Frame: this project has no location (set it in the Studio's Settings) — align by the marker or by taps."); return; }
    show("Frame: reading the location and the compass…");
    try {
      // The ground's height: the floor's own where the session has local-floor, else a level surface seen.
      const ground = ar.groundHeight ?? (ar.floorSpace ? 0 : null);
      if (ground === null) throw new Error("the ground has not been seen yet: aim at it until the reticle shows, then try again");
      const fix = await currentFix(), heading = compass.latest();
      if (!heading || performance.now() - heading.at > 2000) throw new Error("no compass reading (this browser gives no absolute orientation)");
      if (ar.ended) return;
      const m = ar.viewer, body = { ...fix, heading: heading.heading, headingAccuracy: heading.headingAccuracy,
        position: positionOf(m), forward: [-m[8], -m[9], -m[10]], groundHeight: ground };
      const { response, answer } = await apiRequest("POST", `/api/v1/projects/${encodeURIComponent(project)}/align/geo`, { token: access.token, body });
      if (!response.ok) throw new Error(errorMessage(answer, "HTTP " + response.status));
      if (ar.ended || ["marker", "anchor", "taps"].includes(state.method)) return;
      log.geo = { ...answer, device: body.position };
      const here = answer.accuracy + answer.errorPerMetre * answer.distance;
      set("geo", answer.transform, here, `GPS and compass (±${here.toFixed(1)} m at the origin, ${answer.distance.toFixed(0)} m away; ±${(answer.errorPerMetre * 10).toFixed(1)} m more per 10 m)`);
    } catch (error) {
      show("Frame: geo alignment failed — " + error.message + ".");
    }
  }

  restoreAnchor();
  describeNone();
  return {
    frame, tap, beginTaps, alignByGeo, ways,
    get tapping() { return state.tapping > 0; },
    get matrix() { return state.matrix; },
    get inverse() { return state.inverse; },
    get method() { return state.method; },
    dispose: () => compass.stop(),
  };
}
