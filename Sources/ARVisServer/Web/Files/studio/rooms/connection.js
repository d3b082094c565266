// A member's connection to a room: JSON messages and pose packets in, JSON messages out;
// reconnects and resumes after the last event it saw.

import { session } from "../core/session.js";
import { lastSeen, readRoomFrame, reconnectDelay, refusedClose, roomProtocols, roomURL } from "../../protocol/room-protocol.js";

/// Joins room `room` of project `slug` as a member: `onMessage(json)` for text messages,
/// `onStatus(text)` as the connection changes, `onPose(pose)` for pose packets. Returns
/// {send(message) → whether it was sent, close()}.
export function joinRoom(slug, room, onMessage, onStatus, onPose) {
  let socket = null, closed = false, since = null, retry = 0, timer = 0;
  const status = (text) => { if (onStatus) onStatus(text); };
  const connect = () => {
    socket = new WebSocket(roomURL(location.protocol, location.host, slug, room, since), roomProtocols(session.token));
    socket.binaryType = "arraybuffer";
    socket.onopen = () => { retry = 0; status("live"); };
    socket.onmessage = (event) => {
      const frame = readRoomFrame(event.data);
      if (!frame) return;
      if (frame.pose) { if (onPose) onPose(frame.pose); return; }
      since = lastSeen(since, frame.message);
      onMessage(frame.message);
    };
    socket.onclose = (event) => {
      if (closed) return;
      // Refused, or access revoked while in the room (4003): joining again would be refused too.
      if (refusedClose(event.code)) { status("refused: " + (event.reason || "no access")); return; }
      status("reconnecting…");
      timer = setTimeout(connect, reconnectDelay(retry++));
    };
  };
  connect();
  return {
    send: (message) => { if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; } return false; },
    close: () => { closed = true; clearTimeout(timer); if (socket) socket.close(1000, "left the page"); },
  };
}
