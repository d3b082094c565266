// The Share tool, "Share my view": joins the room the page's link names (`?room=R#link=TOKEN`), or as
// a signed-in member the room `?room=` names (else "main"), sends the viewer's pose every frame as
// an ARVis pose packet with the camera's video, and shows the room's annotations made on this
// session's frames. Once the session has found the project's frame, it tells the room where that
// frame lies in the session's coordinates (again every few seconds, and when it moves), so the
// Studio draws the project's bubbles where this device sees them. Pressed again, it stops.

import { encodePose } from "../../protocol/pose-packet.js";
import { quaternionOf } from "../../viewer/matrix.js";
import { intrinsicsOf } from "../view-intrinsics.js";
import { lookUpRoomLink, shareRoom } from "../room-share.js";
import { picturePacket, shareViewVideo } from "../view-video.js";
import { hasCameraAccess, xrCameraSource } from "../xr-camera.js";
import { roomAccess } from "./room-access.js";

/// The Share tool of session core `ar`; `annotateButton`: the Annotate tool's button, shown while
/// sharing; `stopped()`: called when sharing stops.
export function shareTool(ar, annotateButton, stopped) {
  const { log, say, $ } = ar, button = $("ar-share");
  const share = { room: null, starting: false, video: null, xrCamera: null, published: null, markers: new Map(), elsewhere: new Set() };
  button.setAttribute("aria-pressed", "false");
  annotateButton.hidden = true;

  async function toggle() {
    if (share.room) { stop(); return; }
    if (share.starting) return;
    const { link, token, room } = roomAccess();
    Object.assign(log.share, { room, error: null, arrivals: [] });
    if (link) {
      share.starting = true;
      try { await lookUpRoomLink(link); } catch (error) {
        Object.assign(log.share, { state: "refused", error: error.code });
        say("Sharing refused: " + error.message);
        return;
      } finally {
        share.starting = false;
      }
      if (ar.ended || share.room) return;
    } else if (!token) { say("Sign in to ARVis Studio on this phone, or open a room link from the project's owner, to share your view."); return; }
    button.setAttribute("aria-pressed", "true");
    annotateButton.hidden = false;
    share.room = shareRoom({ project: ar.project, room, link, token }, {
      state: (state, detail) => {
        log.share.state = state;
        if (state === "refused") log.share.error = "refused";
        if (state === "on" && share.room) { share.room.planes(ar.planes); share.frameSent = null; }
        say(detail ? detail : state === "on" ? `Sharing your view in room ${room}` : "");
      },
      annotations: (list, replace) => {
        if (replace) { share.markers.clear(); share.elsewhere.clear(); }
        else for (const a of list) if (a.clientId) log.share.arrivals.push([a.clientId, Date.now()]);
        for (const a of list) {
          if (madeInSession(a)) share.markers.set(a.id, { position: [a.position.x, a.position.y || 0, a.position.z], text: a.text });
          else share.elsewhere.add(a.id);
        }
        logAnnotations();
        if (replace && share.elsewhere.size) say(`${share.elsewhere.size} note${share.elsewhere.size === 1 ? " was" : "s were"} placed in another AR session: not shown here, where that session's coordinates mean nothing`);
      },
      removed: (id) => { share.markers.delete(id); share.elsewhere.delete(id); logAnnotations(); },
      message: (message) => share.video.message(message),
    });
    share.xrCamera = hasCameraAccess(ar.session, ar.features) ? xrCameraSource(ar.gl, ar.session) : null;
    share.video = shareViewVideo(share.room, () => (ar.lost ? null : share.published), log.share, say, share.xrCamera);
  }

  /// Stops sharing: the video, the session's camera copy (once the video no longer reads it), the room.
  function stop() {
    const xrCamera = share.xrCamera;
    share.video.stop().finally(() => { if (xrCamera) xrCamera.stop(); });
    share.room.close();
    share.room = share.xrCamera = null;
    button.setAttribute("aria-pressed", "false");
    annotateButton.hidden = true;
    stopped();
  }

  /// Whether a room's annotation was placed on one of this session's frames: only those are in this
  /// session's coordinates (each session has its own origin; the frame ids it sends start at random).
  const madeInSession = (annotation) => Number.isInteger(annotation.frame) && annotation.frame >= ar.firstFrame && annotation.frame <= ar.frameId;

  function logAnnotations() {
    log.annotations = [...share.markers].map(([id, m]) => ({ id, position: m.position, text: m.text }));
    log.annotationsElsewhere = share.elsewhere.size;
  }

  /// Sends the viewer's pose to the room: an ARVis pose packet per frame.
  function frame(xrFrame, pose) {
    if (!share.room || log.share.state !== "on") return;
    const view = pose.views[0], t = pose.transform, o = t.orientation, p = t.position;
    ar.frameId += 1;
    share.published = {
      viewport: [innerWidth, innerHeight], frame: ar.frameId, time: ar.now() / 1000, position: [p.x, p.y, p.z], orientation: [o.x, o.y, o.z, o.w],
      intrinsics: intrinsicsOf(view.projectionMatrix, innerWidth, innerHeight),
    };
    share.room.publish(encodePose(share.published));
    log.share.sent = share.room.sent;
    sendProjectFrame(ar.now());
    if (share.xrCamera) share.xrCamera.capture(view, (size) => picturePacket(share.published, size));
  }

  /// How often the project's frame is told again while it stays put, and at most while it moves
  /// (ms): a member who joins late hears it within the first.
  const frameRepeat = 3000, frameEvery = 250;

  /// Tells the room where the project's frame lies in this session (`ar.projectFrame()`, a matrix
  /// from the frame to the session, or null before it is found) when that changed by more than a
  /// millimetre (at most every `frameEvery`) or `frameRepeat` has passed.
  function sendProjectFrame(now) {
    const matrix = ar.projectFrame ? ar.projectFrame() : null;
    const key = matrix ? Array.from(matrix, (value) => value.toFixed(3)).join() : "none", sent = share.frameSent;
    if (sent && now - sent.at < (sent.key === key ? frameRepeat : frameEvery)) return;
    const message = matrix ? { type: "projectFrame", position: [matrix[12], matrix[13], matrix[14]], orientation: quaternionOf(matrix) } : { type: "projectFrame" };
    if (share.room.send(message)) share.frameSent = { key, at: now };
  }

  /// The room's notes made on this session's frames, as small magenta squares facing the viewer.
  function drawQuads() {
    const facing = ar.viewer;
    for (const [, marker] of share.markers) {
      const at = [facing[0], facing[1], facing[2], 0, facing[4], facing[5], facing[6], 0, facing[8], facing[9], facing[10], 0, marker.position[0], marker.position[1], marker.position[2], 1];
      ar.painter.solid(at, [0.05, 0.05], [1, 0, 1, 1]);
    }
  }

  button.onclick = toggle;
  return {
    name: "share", frame, drawQuads,
    get room() { return share.room && log.share.state === "on" ? share.room : null; },
    planes: (planes) => { if (share.room) share.room.planes(planes); },
    dispose() { if (share.room) stop(); },
  };
}
