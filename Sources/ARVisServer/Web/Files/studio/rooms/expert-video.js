// The expert's side of a room's video: answers the publisher's offer, strips each frame's
// metadata in the receiver transform, and hands every frame shown to `onFrame(picture, metadata)`
// with the metadata of that very frame (found by its RTP timestamp).

import { videoViewer } from "../../media/room-video.js";
import { videoTurns } from "../../media/camera-share.js";
import { FrameMetadata, showFrames } from "../../media/video-display.js";
import { attachTransform, peerConfiguration } from "../../media/video-transforms.js";

/// How the video reaches this page, from a peer connection's statistics: "relay" (through a TURN
/// server), "direct", or null before a path is chosen. (Through the room's SFU, `watchVideo` says
/// "sfu".)
export async function videoPath(connection) {
  const report = await connection.getStats();
  let pair = null;
  report.forEach((entry) => { if (entry.type === "transport" && entry.selectedCandidatePairId) pair = report.get(entry.selectedCandidatePairId); });
  if (!pair) report.forEach((entry) => { if (entry.type === "candidate-pair" && entry.nominated && entry.state === "succeeded") pair = entry; });
  const local = pair && report.get(pair.localCandidateId), remote = pair && report.get(pair.remoteCandidateId);
  if (!local || !remote) return null;
  return local.candidateType === "relay" || remote.candidateType === "relay" ? "relay" : "direct";
}

/// Watches the room's video. `room`: the RoomMembers the page follows (who publishes, and the ICE
/// servers); `send(message)`: to the room's socket; `onFrame(picture, metadata,
/// store)` (`store`: the FrameMetadata, for a frame the browser gave no RTP timestamp);
/// `onState(state, path)`: "none", "connecting", "waiting" (the device sends to as many experts as
/// it can; this one is next), "live" (with its path: "direct", "relay" or "sfu") or "ended". Returns
/// {receive(message), close()}.
export function watchVideo({ room, send, onFrame, onState }) {
  const metadata = new FrameMetadata();
  let display = null, pathTimer = 0;
  // Once the video is live, which way it comes, for the status line.
  const followPath = (connection, from) => {
    clearInterval(pathTimer);
    pathTimer = setInterval(async () => {
      if (connection.connectionState !== "connected") return;
      const path = await videoPath(connection).catch(() => null);
      if (path) { onState("live", from === (room.sfu && room.sfu.id) ? "sfu" : path); clearInterval(pathTimer); }
    }, 500);
  };
  const viewer = videoViewer({
    send,
    createPeer: () => {
      onState("connecting");
      const connection = room.turn.track(new RTCPeerConnection(peerConfiguration(room.iceServers, room.iceTransportPolicy)));
      connection.onconnectionstatechange = () => {
        if (["failed", "closed"].includes(connection.connectionState)) onState("ended");
      };
      return connection;
    },
    onTrack: (track, from) => {
      if (display) display.stop();
      const shown = (display = showFrames(track, metadata, (picture, found) => onFrame(picture, found, metadata)));
      onState("live");
      if (viewer.connection) followPath(viewer.connection, from);
      track.onended = () => onState("ended");
      // The frames stop being read before the peer's connection closes (media/frame-stream.js).
      return () => shown.stop();
    },
    onWait: () => onState("waiting"),
    // Offers are taken from the room's publishers and its SFU only (never from another member).
    accepts: (from) => room.isPublisher(from) || (room.sfu !== null && from === room.sfu.id),
    onReceiver: (receiver) => {
      // A live view, not a film: play each frame as soon as it can be decoded.
      if ("jitterBufferTarget" in receiver) receiver.jitterBufferTarget = 0;
      const transform = attachTransform(receiver, "receive");
      transform.port.onmessage = ({ data }) => metadata.keep(data);
      return () => transform.close();
    },
  });
  // An offer's answer waits for TURN credentials (asked for with the first offer, renewed while the
  // video lasts); the signals keep the order they came in.
  const inTurn = videoTurns(room, send);
  return {
    /// Every room message, after `room` has read it.
    receive(message) {
      if (message.type === "signal") inTurn(() => viewer.signal(message).catch((error) => { console.warn("A signal from " + message.from + " was not taken:", error); onState("ended"); }));
      else if (message.type === "memberLeft") {
        inTurn(() => {
          if (!viewer.connection) return;
          viewer.left(message.id);
          if (!viewer.connection) onState("ended");
        });
      }
    },
    close() { clearInterval(pathTimer); room.turn.stop(); if (display) display.stop(); viewer.close(); },
  };
}
