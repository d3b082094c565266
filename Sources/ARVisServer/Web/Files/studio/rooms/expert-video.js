// The expert's side of a room's video: answers the publisher's offer, strips each frame's
// metadata in the receiver transform, and hands every frame shown to `onFrame(picture, metadata)`
// with the metadata of that very frame (found by its RTP timestamp).

import { videoViewer } from "../../media/room-video.js";
import { FrameMetadata, showFrames } from "../../media/video-display.js";
import { attachTransform, peerConfiguration } from "../../media/video-transforms.js";

/// Watches the room's video. `send(message)`: to the room's socket; `onFrame(picture, metadata)`;
/// `onState(state)`: "none", "connecting", "live" or "ended". Returns {receive(message), close()}.
export function watchVideo({ send, onFrame, onState }) {
  const metadata = new FrameMetadata();
  let iceServers = [], iceTransportPolicy = "all", display = null;
  const viewer = videoViewer({
    send,
    createPeer: () => {
      onState("connecting");
      const connection = new RTCPeerConnection(peerConfiguration(iceServers, iceTransportPolicy));
      connection.onconnectionstatechange = () => {
        if (["failed", "closed"].includes(connection.connectionState)) onState("ended");
      };
      return connection;
    },
    onTrack: (track) => {
      if (display) display.stop();
      display = showFrames(track, metadata, onFrame);
      onState("live");
      track.onended = () => onState("ended");
    },
    onReceiver: (receiver) => {
      // A live view, not a film: play each frame as soon as it can be decoded.
      if ("jitterBufferTarget" in receiver) receiver.jitterBufferTarget = 0;
      const transform = attachTransform(receiver, "receive");
      transform.port.onmessage = ({ data }) => metadata.keep(data);
      return () => transform.close();
    },
  });
  return {
    receive(message) {
      if (message.type === "welcome") { iceServers = message.iceServers || []; iceTransportPolicy = message.iceTransportPolicy || "all"; }
      else if (message.type === "signal") viewer.signal(message).catch(() => onState("ended"));
      else if (message.type === "memberLeft" && viewer.connection) { viewer.left(message.id); if (!viewer.connection) onState("ended"); }
    },
    close() { if (display) display.stop(); viewer.close(); },
  };
}
