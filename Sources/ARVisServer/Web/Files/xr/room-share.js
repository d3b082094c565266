// "Share my view": the AR view joins one of the project's rooms as its publisher — with a room
// link the owner made, or as a signed-in member — and sends the viewer's pose every frame as the
// rooms' ARVis pose packets, and the surfaces it found; it hears the room's annotations. The pose
// goes through one `publish(packet)` so a video sender can carry the same packet with each frame.

import { errorMessage } from "./api-request.js";
import { lastSeen, readRoomFrame, reconnectDelay, refusedClose, roomProtocols, roomURL } from "../protocol/room-protocol.js";

/// Checks a room link with the server: {project, room, spec, expiresAt}; throws an Error whose
/// `code` is the API's (`roomLinkExpired`, `notFound`).
export async function lookUpRoomLink(token) {
  const response = await fetch("/api/v1/room-links/lookup", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) return answer;
  const error = new Error(errorMessage(answer, "the room link was refused (" + response.status + ")"));
  error.code = (answer.error && answer.error.code) || "refused";
  throw error;
}

/// A room share for `project`'s `room`, joining with `link` (a room link's token) or `token` (a
/// member's bearer token). `on`: {state(state, detail), annotations(list, replace), removed(id),
/// message(message)? (every message, for a camera's signalling)}.
/// Returns {publish(packet), planes(list), annotate(tap, frame, text), send(message), close(), sent}.
export function shareRoom({ project, room, link, token }, on) {
  let socket = null, since = null, retry = 0, closed = false, pending = null;
  const share = { sent: 0 };

  function connect() {
    pending = null;
    if (closed) return;
    on.state(retry ? "reconnecting" : "joining");
    const url = roomURL(location.protocol, location.host, project, room, since) + (since === null ? "?" : "&") + "role=publisher";
    socket = new WebSocket(url, link ? ["arvis", "arvis.link." + link] : roomProtocols(token));
    socket.binaryType = "arraybuffer";
    socket.onopen = () => { retry = 0; on.state("on"); };
    socket.onmessage = (event) => receive(readRoomFrame(event.data));
    socket.onclose = (event) => {
      socket = null;
      if (closed) return;
      if (refusedClose(event.code)) { on.state("refused", event.reason || "the room refused this device"); return; }
      pending = setTimeout(connect, reconnectDelay(retry++));
      on.state("reconnecting", "the room connection dropped: joining again…");
    };
  }

  function receive(frame) {
    if (!frame || !frame.message) return;
    const message = frame.message;
    since = lastSeen(since, message);
    if (on.message) on.message(message);
    if (message.type === "welcome" && Array.isArray(message.annotations)) on.annotations(message.annotations, true);
    else if (message.type === "annotation" && message.annotation) on.annotations([message.annotation], false);
    else if (message.type === "annotationDeleted") on.removed(message.id);
    else if (message.type === "refused") on.state("on", message.message);
  }

  const send = (data) => {
    if (!socket || socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > 65536) return false;
    socket.send(data);
    return true;
  };
  share.publish = (packet) => { if (send(packet)) share.sent++; };
  // Signalling is never dropped for a full buffer, as a pose may be (the next one replaces it).
  share.send = (message) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };
  share.planes = (planes) => send(JSON.stringify({ type: "planes", planes }));
  share.annotate = (tap, frame, text) => send(JSON.stringify({ type: "annotate", tap, frame, text, clientId: crypto.randomUUID() }));
  share.close = () => {
    closed = true;
    clearTimeout(pending);
    if (socket) socket.close(1000, "stopped sharing");
    on.state("off");
  };
  connect();
  return share;
}
