// A room's wire protocol (/live/PROJECT/rooms/ROOM): its URL and WebSocket subprotocols, and the
// frames it carries — binary ARVis pose packets and JSON text messages. Pure: no DOM, no socket.

/// The size of an ARVis pose packet.
export const posePacketBytes = 62;

/// An ARVis pose packet (62 bytes, little-endian, in an ArrayBuffer): version 1 (UInt8), flags,
/// viewport width and height (UInt16 points), frame (UInt32), time (Float64 seconds), position
/// (3 × Float32 metres), orientation x, y, z (Float32; w ≥ 0 is implied), intrinsics fx, fy, cx, cy
/// (Float32 points), then a CRC-32 the server checked before relaying it. Null for a buffer of
/// another length or version.
export function decodePose(buffer) {
  if (buffer.byteLength !== posePacketBytes) return null;
  const view = new DataView(buffer);
  if (view.getUint8(0) !== 1) return null;
  const f = (offset) => view.getFloat32(offset, true);
  const x = f(30), y = f(34), z = f(38);
  return { viewport: [view.getUint16(2, true), view.getUint16(4, true)], frame: view.getUint32(6, true), time: view.getFloat64(10, true),
    position: [f(18), f(22), f(26)], orientation: [x, y, z, Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))], intrinsics: [f(42), f(46), f(50), f(54)] };
}

/// What a frame of the room's socket holds: `{pose}` for a pose packet, `{message}` for a JSON
/// object; null for anything else (a packet of another size or version, text that is not a JSON
/// object).
export function readRoomFrame(data) {
  if (typeof data !== "string") {
    const pose = decodePose(data);
    return pose ? { pose } : null;
  }
  let message;
  try { message = JSON.parse(data); } catch (error) { return null; }
  return message !== null && typeof message === "object" ? { message } : null;
}

/// The last event seen once `message` is read (`since`: the last seen before, or null): a room
/// resumes after it on reconnecting.
export const lastSeen = (since, message) => typeof message.seq === "number" ? Math.max(since || 0, message.seq) : since;

/// The room's WebSocket URL on the page's `protocol` ("https:" or "http:") and `host`, resuming
/// after event `since` unless it is null.
export const roomURL = (protocol, host, slug, room, since) =>
  (protocol === "https:" ? "wss://" : "ws://") + host + "/live/" + encodeURIComponent(slug) + "/rooms/" + encodeURIComponent(room)
    + (since !== null && since !== undefined ? "?since=" + since : "");

/// The subprotocols a member offers: "arvis", and its bearer token as one when signed in.
export const roomProtocols = (token) => token ? ["arvis", "arvis.bearer." + token] : ["arvis"];

/// How long to wait before reconnecting after `retry` failed attempts: 0.5 s doubling, at most 10 s.
export const reconnectDelay = (retry) => Math.min(10000, 500 * Math.pow(2, retry));

/// Whether a socket closed with `code` was refused (or had its access revoked): joining again
/// would be refused too.
export const refusedClose = (code) => code === 1008 || code === 4003;
