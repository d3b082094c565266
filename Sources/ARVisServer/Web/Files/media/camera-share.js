// A publisher's camera in a room: the camera's pictures tagged and sent with each one's metadata
// (media/tagged-video.js) to the room's members, peer to peer (media/room-video.js), through the
// room's own socket for signalling. The phone's "Share my view" sends its XR pose with each
// picture; a laptop's camera sends none.

import { videoPublisher } from "./room-video.js";
import { taggedVideo } from "./tagged-video.js";
import { TurnCredentials } from "./turn-credentials.js";
import { attachTransform, peerConfiguration, preferVP8 } from "./video-transforms.js";

/// Asks for a camera: the one facing away on a phone, 640 × 480 where it can.
export async function openCamera() {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } },
  });
  return stream.getVideoTracks()[0];
}

/// Who is in the room, as a publisher needs it: kept from `welcome`, `memberJoined` and `memberLeft`;
/// and the ICE servers for video, with TURN credentials asked for when video starts (`turn`).
export class RoomMembers {
  constructor(turn = new TurnCredentials()) { this.members = new Map(); this.turn = turn; this.iceTransportPolicy = "all"; this.sfu = null; }

  /// The STUN servers, and the TURN servers with credentials once video has asked for them.
  get iceServers() { return this.turn.servers; }

  /// Reads a room message; true when it was about members.
  read(message) {
    if (this.turn.read(message)) return false;
    if (message.type === "welcome") {
      this.members = new Map((message.members || []).map((member) => [member.id, member]));
      this.turn.welcome(message);
      this.iceTransportPolicy = message.iceTransportPolicy || "all";
      // {id, directViewers} when the server forwards video through an SFU.
      this.sfu = message.sfu || null;
    } else if (message.type === "memberJoined" && message.member) this.members.set(message.member.id, message.member);
    else if (message.type === "memberLeft") this.members.delete(message.id);
    else return false;
    return true;
  }

  /// Whether `id` is a publisher in the room (a device sharing its view).
  isPublisher(id) { const member = this.members.get(id); return Boolean(member && member.role === "publisher"); }

  /// Whether any publisher is in the room.
  get hasPublisher() { return [...this.members.values()].some((member) => member.role === "publisher"); }
}

/// Shares `camera` (a video track) in the room whose members `room` (a RoomMembers) follows,
/// signalling with `send(message)`. `poseOf(size, time)`: the pose packet of a picture, or null.
/// Returns {receive(message) (every room message), stop(), log, peers}; `stop()` returns a promise
/// that settles once the camera is stopped.
export function shareCamera({ camera, room, send, poseOf }) {
  const video = taggedVideo(camera, poseOf);
  const stream = new MediaStream([video.track]);
  const publisher = videoPublisher({
    track: video.track, stream, send,
    ...(room.sfu ? { sfu: room.sfu.id, maxPeers: room.sfu.directViewers } : {}),
    createPeer: () => room.turn.track(new RTCPeerConnection(peerConfiguration(room.iceServers, room.iceTransportPolicy))),
    onSender: (sender, connection) => {
      const transceiver = connection.getTransceivers().find((candidate) => candidate.sender === sender);
      if (transceiver) preferVP8(transceiver);
      const transform = attachTransform(sender, "send");
      video.addPort(transform.port);
      transform.port.onmessage = ({ data }) => { if (data.stats) video.log.transform = data.stats; };
      return () => { video.removePort(transform.port); transform.close(); };
    },
  });
  // Every step of the negotiation waits for TURN credentials (at once while they are fresh), in
  // the order the room's messages came.
  const inTurn = videoTurns(room, send);
  inTurn(() => publisher.welcome({ members: [...room.members.values()] }));
  return {
    log: video.log,
    get peers() { return publisher.peers; },
    receive(message) {
      // A new welcome is a new connection, with a new member id: every peer starts again.
      if (message.type === "welcome") inTurn(() => { publisher.close(); publisher.welcome(message); });
      else if (message.type === "memberJoined" && message.member) inTurn(() => publisher.joined(message.member));
      else if (message.type === "memberLeft") inTurn(() => publisher.left(message.id));
      else if (message.type === "signal") inTurn(() => publisher.signal(message).catch((error) => console.warn("A signal from " + message.from + " was not taken:", error)));
    },
    stop() { room.turn.stop(); publisher.close(); return video.stop(); },
  };
}

/// Runs a video page's steps one after another, each once `room` holds fresh TURN credentials
/// (asked for over `send` when it has none): `inTurn(step)`.
export function videoTurns(room, send) {
  let queue = Promise.resolve();
  return (step) => {
    queue = queue.then(() => room.turn.ready(send)).then(step).catch((error) => console.warn("A video step failed:", error));
    return queue;
  };
}
