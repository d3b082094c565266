// "Share this browser's camera": the room page publishes the computer's camera in the room, for a
// demonstration or a test — as a device of its own (its own connection, `role=publisher`), with
// no pose, so experts see the picture and mark it (the marks stay in the picture), but cannot
// place annotations in a world.

import { RoomMembers, openCamera, shareCamera } from "../../media/camera-share.js";
import { canPublishVideo } from "../../media/tagged-video.js";
import { shareRoom } from "../../xr/room-share.js";
import { session } from "../core/session.js";
import { h } from "../core/dom.js";
import { say } from "../core/toast.js";

/// The button, for project `slug`'s room `room`. Returns {button, close()}.
export function cameraButton(slug, room) {
  let share = null, camera = null, track = null, starting = false;
  const members = new RoomMembers();
  window.studioCamera = { state: "off", log: null };
  const button = h("button", { type: "button", "aria-pressed": "false", onclick: () => (share || starting ? stop() : start()) }, "Share this browser's camera");

  function stop() {
    starting = false;
    if (camera) camera.stop(); else if (track) track.stop();
    if (share) share.close();
    camera = share = track = null;
    button.setAttribute("aria-pressed", "false");
    button.textContent = "Share this browser's camera";
    window.studioCamera.state = "off";
  }

  async function start() {
    if (!canPublishVideo()) { say("This browser cannot send tagged video (it needs MediaStreamTrackProcessor): use Chromium or Chrome.", "error"); return; }
    starting = true;
    button.setAttribute("aria-pressed", "true");
    button.textContent = "Stop sharing the camera";
    let opened;
    try { opened = await openCamera(); } catch (error) { stop(); say("The camera was not granted: " + error.message, "error"); return; }
    // Stopped (or the page left) while the browser asked for the camera: let it go at once.
    if (!starting) { opened.stop(); return; }
    starting = false;
    track = opened;
    share = shareRoom({ project: slug, room, token: session.token }, {
      state: (state, detail) => { window.studioCamera.state = state; if (state === "refused") { say("The room refused the camera: " + detail, "error"); stop(); } },
      annotations: () => {},
      removed: () => {},
      message: (message) => {
        members.read(message);
        if (message.type === "welcome" && !camera) {
          camera = shareCamera({ camera: track, room: members, send: (signal) => share.send(signal), poseOf: () => null });
          window.studioCamera.log = camera.log;
        }
        else if (camera) camera.receive(message);
      },
    });
  }

  return { button, close: stop };
}
