// A room's wire protocol (/live/PROJECT/rooms/ROOM): its URL and WebSocket subprotocols, and the
// frames it carries — binary ARVis pose packets (pose-packet.js) and JSON text messages. Pure: no DOM,
// no socket.

import { decodePose } from "./pose-packet.js";

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
