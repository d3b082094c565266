// The Bubbles tool (Bubble Vision on the phone): blow soap-film panes into the room and paint
// trails of film as the phone moves, saved in the project's frame as the project's anchors, so every
// device in the project sees them and finds them again next session. Blowing waits for Bubble
// Vision's gate (bubbles/gating.js). A pane is the seed's: 0.6 × 0.4 m, 0.8 m in front of the
// viewer, facing it, or, "On surfaces", on the surface under the reticle; size and colour are
// chosen by pressing and holding Blow. Paint is held: a trail follows a point half a metre in front
// of the phone and is saved when the finger lifts, when it is full (1 024 slices) or when tracking
// is lost. Nothing is drawn before the server has it, except the trail being painted.

import { multiply, quaternionOf, transformDirection, transformPoint } from "../../viewer/matrix.js";
import { apiRequest, errorMessage, removeAndSay, secondPress } from "../api-request.js";
import { encodePoints } from "../../protocol/bubble-payload.js";
import { blowGate } from "../bubbles/gating.js";
import { paneSize } from "../bubbles/pane-mesh.js";
import { trail } from "../bubbles/trail.js";
import { positionOf, rotationX } from "../placement.js";

/// How far in front of the viewer a pane is blown and a trail is painted (m), and how long a press
/// on Blow opens the picker instead (ms).
export const blowDistance = 0.8;
export const paintDistance = 0.5;
const holdForPicker = 500;

/// The session-space matrix of a pane blown from `viewer` (the seed's placement: the camera's
/// turn, `blowDistance` along its forward −z), or laid on the surface of `hit` (facing out of it).
export function blownPane(viewer, hit) {
  if (hit) return Array.from(multiply(hit, rotationX(-Math.PI / 2)));
  const pane = Array.from(viewer);
  for (let c = 0; c < 3; c++) pane[12 + c] = viewer[12 + c] - blowDistance * viewer[8 + c];
  return pane;
}

/// A matrix as the API's pose.
const poseOf = (m) => ({ position: positionOf(m), orientation: quaternionOf(m) });

/// The Bubbles tool of session core `ar` for `member` ({token, role}) in the project's `frame`,
/// drawn by bubble `layer`, live from the project's `room`.
export function bubbleTool(ar, { member, frame, layer, room }) {
  const { $, say, log, project } = ar, button = $("ar-bubbles"), panel = $("ar-bubble-panel");
  const blowButton = $("ar-blow"), paintButton = $("ar-paint"), surface = $("ar-bubble-surface"), picker = $("ar-bubble-picker");
  const api = `/api/v1/projects/${encodeURIComponent(project)}/anchors`, session = crypto.randomUUID(), gate = blowGate();
  const may = ["editor", "owner"].includes(member.role);
  let requested = null, painting = null, gateState = null, pressedAt = 0, pickerTimer = 0, active = false, disposed = false, shownGate = "";
  log.bubbles = { session, enabled: may, gate: null, blows: [], trails: [], refusals: [], meshUpdates: [] };
  button.hidden = !may;
  $("ar-bubble-clear").hidden = member.role !== "owner";
  for (const id of ["ar-bubble-size", "ar-bubble-tint"]) $(id).oninput = () => { $(id + "-value").textContent = $(id).value; };

  function refuse(reason, text) {
    log.bubbles.refusals.push({ reason, text, at: ar.now() });
    say(text);
  }

  /// Why nothing can be blown or painted now, or null.
  function refusal() {
    if (!frame.matrix) return ["unaligned", `Not blown: find the project's frame first (${frame.ways()}), so others see the bubbles where you do.`];
    if (!gateState || !gateState.ready) return ["gate", "Not yet: " + (gateState ? gateState.message : "Initializing tracking...")];
    if (!["live", "refused"].includes(room.state())) return ["offline", "Not blown: the connection to the server is down. Nothing was saved; try again once it is back."];
    return null;
  }

  function blow() {
    const why = refusal();
    if (why) { refuse(...why); return; }
    requested = { tappedAt: ar.now() };
  }

  async function save(body, record) {
    let response, answer;
    try {
      ({ response, answer } = await apiRequest("POST", api, { token: member.token, body }));
    } catch (error) {
      record.status = "offline";
      refuse("offline", "Not saved: the server could not be reached. Nothing was stored.");
      return null;
    }
    record.answeredAt = ar.now();
    record.status = response.status;
    if (disposed) return null;
    if (!response.ok) { refuse((answer.error && answer.error.code) || String(response.status), "Not saved: " + errorMessage(answer, "HTTP " + response.status)); return null; }
    record.id = answer.id;
    layer.upsert(answer);
    return answer;
  }

  /// A blow asked for is made in the next frame, with that frame's viewer and reticle.
  function blowNow(tap) {
    const onSurface = surface.getAttribute("aria-pressed") === "true";
    if (onSurface && !ar.hit) { refuse("surface", "Not blown: no surface under the reticle. Aim at a wall or the floor until the reticle shows."); return; }
    const inSession = blownPane(ar.viewer, onSurface ? ar.hit.matrix : null);
    const width = Number($("ar-bubble-size").value);
    const body = { pose: poseOf(multiply(frame.inverse, inSession)), session, lifetimeDays: 30,
      payload: { kind: "pane", width, height: width * paneSize[1] / paneSize[0], thicknessOffset: Number($("ar-bubble-tint").value), phase: Math.random() * 10 } };
    const record = { tappedAt: tap.tappedAt, inSession, onSurface, sent: body, answeredAt: null, id: null };
    log.bubbles.blows.push(record);
    save(body, record).then((saved) => { if (saved) say(`Blew a pane (${width.toFixed(2)} m).`); });
  }

  function startPainting() {
    if (painting) return;
    const why = refusal();
    if (why) { refuse(...why); return; }
    const up = transformDirection(frame.inverse, [ar.viewer[4], ar.viewer[5], ar.viewer[6]]);
    const ribbon = trail(up), tint = Number($("ar-bubble-tint").value), clientId = crypto.randomUUID();
    // The painted ribbon stays until the stored trail is drawn in its place (bubble-layer.js).
    const gpu = layer.painting(clientId, layer.renderer.trail(ribbon, tint));
    painting = { ribbon, up, tint, clientId, gpu, record: { startedAt: ar.now(), slices: 0, stopped: null, id: null } };
    log.bubbles.trails.push(painting.record);
    say("Painting: move the phone; lift your finger to save the trail.");
  }

  function stopPainting(reason) {
    if (!painting) return;
    const { ribbon, up, tint, clientId, gpu, record } = painting;
    painting = null;
    record.stopped = reason;
    record.slices = ribbon.count();
    if (record.slices < 2) { gpu.remove(); say("Nothing painted: move the phone while holding Paint."); return; }
    const points = ribbon.slices.map((slice) => slice.position), origin = points[0];
    const body = { pose: { position: origin, orientation: [0, 0, 0, 1] }, session, lifetimeDays: 30,
      payload: { kind: "trail", up, thicknessOffset: tint, clientId, points: encodePoints(origin, points) } };
    if (reason === "lost") say("Painting stopped: tracking was lost. The trail so far is being saved.");
    else if (reason === "full") say("The trail is full (1 024 slices): saved.");
    save(body, record).then((saved) => { gpu.remove(); if (saved && reason === "released") say(`Saved a trail of ${record.slices} slices.`); });
  }

  function paint() {
    // A trail goes on across open space (no surface needed once started); lost tracking ends it.
    if (gateState.state !== "ready" && gateState.state !== "scanning") { stopPainting("lost"); return; }
    const tip = transformPoint(ar.viewer, [0, 0, -paintDistance]);
    const change = painting.ribbon.add(transformPoint(frame.inverse, tip));
    if (change) {
      const started = performance.now();
      painting.gpu.update(change);
      log.bubbles.meshUpdates.push(performance.now() - started);
      if (log.bubbles.meshUpdates.length > 5000) log.bubbles.meshUpdates.splice(0, 2500);
    }
    if (painting.ribbon.full()) stopPainting("full");
  }

  function onFrame(xrFrame, pose) {
    const planes = xrFrame.detectedPlanes;
    gateState = gate.update({ pose, surfaceSeen: !!ar.hit || !!(planes && planes.size), now: performance.now() });
    log.bubbles.gate = gateState;
    const blocked = !may || !gateState.ready || !frame.matrix;
    blowButton.disabled = blocked;
    paintButton.disabled = blocked && !painting;
    const line = gateState.message + (frame.matrix ? "" : ` Then find the project's frame: ${frame.ways()}.`);
    if (active && line !== shownGate) $("ar-bubble-gate").textContent = shownGate = line;  // a live region: said when it changes
    if (painting) paint();
    if (requested) { const tap = requested; requested = null; blowNow(tap); }
  }

  // Blow: a tap blows, a press held opens (or closes) the picker.
  blowButton.onpointerdown = () => { pressedAt = performance.now(); pickerTimer = setTimeout(() => { picker.hidden = !picker.hidden; pressedAt = 0; }, holdForPicker); };
  blowButton.onpointerup = () => { clearTimeout(pickerTimer); if (pressedAt && performance.now() - pressedAt < holdForPicker) blow(); pressedAt = 0; };
  blowButton.onpointercancel = () => { clearTimeout(pickerTimer); pressedAt = 0; };
  blowButton.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); blow(); } };
  paintButton.onpointerdown = (event) => { paintButton.setPointerCapture(event.pointerId); startPainting(); };
  paintButton.onpointerup = paintButton.onpointercancel = () => stopPainting("released");
  surface.onclick = () => surface.setAttribute("aria-pressed", String(surface.getAttribute("aria-pressed") !== "true"));

  // The room's anchorDeleted events take each bubble off every device, this one too.
  const confirmed = secondPress(say, "Press “Remove all bubbles” again within 4 s to remove every pane and trail of the project.");
  $("ar-bubble-clear").onclick = () => {
    if (confirmed()) removeAndSay(`/api/v1/projects/${encodeURIComponent(project)}/bubbles`, member.token, say, (answer) => `Removed all ${answer.removed} bubbles of the project.`);
  };

  return {
    name: "bubbles", button, select: blow, frame: onFrame,
    /// No viewer pose this frame: the gate hears it, and a trail being painted stops.
    lost() { gateState = gate.update({ pose: null, surfaceSeen: false, now: performance.now() }); if (painting) stopPainting("lost"); },
    activate() { active = true; shownGate = ""; panel.hidden = false; },
    deactivate() { active = false; panel.hidden = true; requested = null; stopPainting("released"); },
    reticle: () => "any",
    dispose() { stopPainting("released"); disposed = true; clearTimeout(pickerTimer); panel.hidden = true; },
  };
}
