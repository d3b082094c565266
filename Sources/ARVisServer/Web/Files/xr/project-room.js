// The project's room as the AR session's layers hear it: one socket (the room `access.room`),
// joined again after a drop from where it left off, asked again now and then after a refusal (access
// can come back), its messages handed to every listener. The trees and the bubbles each listen; each
// reads its own things again after a welcome the room could not replay from (docs/webxr.md).

import { lastSeen, readRoomFrame, reconnectDelay, refusedClose, roomProtocols, roomURL } from "../protocol/room-protocol.js";

/// How long to wait before joining the room again after a refusal, ms.
const refusedRetry = 30000;

/// The room of `project` for `access` ({token, link, room}); `status(text)` hears "live",
/// "reconnecting" and "refused: …". Returns {joins, listen(message handler) → stop, state(),
/// dispose()}; `joins` is false without a token or link (there is no room to join then).
export function projectRoom({ project, access, status }) {
  const listeners = new Set(), joins = !!(access.token || access.link);
  let socket = null, closed = false, since = null, retry = 0, timer = 0, state = joins ? "joining" : "none";

  function connect() {
    if (closed || !joins) return;
    const protocols = access.link ? ["arvis", "arvis.link." + access.link] : roomProtocols(access.token);
    socket = new WebSocket(roomURL(location.protocol, location.host, project, access.room, since), protocols);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => { retry = 0; state = "live"; status("live"); };
    socket.onmessage = (event) => {
      const frame = readRoomFrame(event.data);
      if (!frame || !frame.message) return;
      since = lastSeen(since, frame.message);
      for (const listener of listeners) listener(frame.message);
    };
    socket.onclose = (event) => {
      socket = null;
      if (closed) return;
      const refused = refusedClose(event.code);
      state = refused ? "refused" : "reconnecting";
      status(refused ? "refused: " + (event.reason || "no access to the project's room") : "reconnecting");
      timer = setTimeout(connect, refused ? refusedRetry : reconnectDelay(retry++));
    };
  }

  connect();
  return {
    joins,
    listen(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    /// "joining", "live", "reconnecting", "refused", or "none" (no room to join).
    state: () => state,
    dispose() {
      closed = true;
      clearTimeout(timer);
      listeners.clear();
      if (socket) socket.close(1000, "left AR");
    },
  };
}
