// "Share my view" with video: the phone's camera goes to the room with each picture's pose — the
// XR viewer's pose of that moment, its intrinsics re-expressed in the picture's pixels — so an
// expert's tap on a picture lands where it should however the phone has moved since. Where the AR
// session grants `camera-access`, the pictures are its own camera images, each with the pose of
// the XR frame it came from (xr/xr-camera.js); else `getUserMedia`'s, with the latest XR pose.
// Where the camera is refused or the browser cannot send tagged video, the view is shared without
// video; while tracking is lost, pictures go without a pose, and the expert's screen says so.

import { RoomMembers, openCamera, shareCamera } from "../media/camera-share.js";
import { canPublishVideo } from "../media/tagged-video.js";
import { encodePose } from "../protocol/pose-packet.js";
import { pictureIntrinsics } from "./view-intrinsics.js";

/// The pose packet of a picture of `size` ([w, h]) taken with the view's `pose` (as published, or
/// null): its intrinsics re-expressed in the picture's pixels (the AR view shows the camera filled).
export function picturePacket(pose, size) {
  return pose ? encodePose({ ...pose, viewport: size, intrinsics: pictureIntrinsics(pose.intrinsics, pose.viewport, size) }) : null;
}

/// Starts sharing the camera in `share` (a room share) once the room welcomes it. `latestPose()`:
/// the pose last published ({viewport, frame, time, position, orientation, intrinsics}) or null;
/// `xrCamera`: the AR session's own camera (xr/xr-camera.js) where it gives its images, whose
/// pictures carry their own frame's pose, else null (getUserMedia, with the latest pose);
/// `log`: where its state goes (`videoSource`: "xr-camera" or "camera") (`video`: starting, on, denied, unsupported or off; `videoLog`;
/// `videoPeers()`). Returns
/// {message(message) (every room message), stop()}.
export function shareViewVideo(share, latestPose, log, say, xrCamera = null) {
  const members = new RoomMembers();
  let camera = null, starting = false, stopped = false;

  const poseOf = (size) => picturePacket(latestPose(), size);

  async function start() {
    starting = true;
    if (!canPublishVideo()) { log.video = "unsupported"; say("This browser cannot send video to the room: sharing your pose only."); return; }
    let track, picturePose = poseOf;
    if (xrCamera) {
      // The session's own camera: each picture with the pose of the XR frame it came from.
      [track, picturePose, log.videoSource] = [xrCamera.track, xrCamera.poseOf, "xr-camera"];
    } else {
      if (!navigator.mediaDevices) { log.video = "unsupported"; say("This browser cannot send video to the room: sharing your pose only."); return; }
      try { track = await openCamera(); } catch (error) { log.video = "denied"; say("No camera for the room (" + error.message + "): sharing your pose only."); return; }
      log.videoSource = "camera";
    }
    if (stopped) { track.stop(); return; }
    try { camera = shareCamera({ camera: track, room: members, send: (message) => share.send(message), poseOf: picturePose }); } catch (error) {
      track.stop();
      log.video = "unsupported";
      say("The camera could not be shared (" + error.message + "): sharing your pose only.");
      return;
    }
    log.video = "on";
    log.videoLog = camera.log;
    // Whom the camera goes to: member ids, and the SFU's.
    log.videoPeers = () => (camera ? [...camera.peers.keys()] : []);
  }

  log.video = "starting";
  return {
    message(message) {
      members.read(message);
      if (camera) camera.receive(message);
      else if (message.type === "welcome" && !starting) start();
    },
    /// Stops the video; the promise it returns settles once the camera is stopped.
    stop() {
      stopped = true;
      const stopping = camera ? camera.stop() : Promise.resolve();
      camera = null;
      log.video = "off";
      return stopping;
    },
  };
}
