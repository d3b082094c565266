// The project's bubbles in a room's views: its panes and trails (anchors whose payload says so; read
// once, then kept live from the room's `anchor` and `anchorDeleted` messages) placed in the room's
// coordinates by where the publishing device found the project's frame (its `projectFrame`
// message). A room's coordinates are the device's session's; until the device has found the
// project's frame there, the bubbles have no place in them and none is drawn.

import { decodePoints, isPane, isTrail, paneHeight } from "../../protocol/bubble-payload.js";
import { api, projectPath } from "../core/api.js";
import { rotate } from "./camera-math.js";

/// A point of the project's frame in the room: turned by `frame.orientation`, moved by `frame.position`.
const inRoom = (frame, point) => {
  const r = rotate(frame.orientation, point);
  return [r[0] + frame.position[0], r[1] + frame.position[1], r[2] + frame.position[2]];
};

/// A quaternion made unit length (the room passes on any length above 0).
const unit = (q) => { const length = Math.hypot(...q); return q.map((v) => v / length); };

/// A pane's outline in the project's frame: its four corners, counter-clockwise seen from its front.
export function paneCorners(anchor) {
  const { position, orientation } = anchor.pose, w = anchor.payload.width / 2, h = paneHeight(anchor.payload) / 2;
  return [[w, h], [-w, h], [-w, -h], [w, -h]].map(([x, y]) => {
    const r = rotate(orientation, [x, y, 0]);
    return [r[0] + position[0], r[1] + position[1], r[2] + position[2]];
  });
}

/// The film's tint for a bubble's colour offset (nm), for a 2D view: hue from the offset, faint.
const tint = (payload) => `hsla(${Math.round(200 + (payload.thicknessOffset || 0) * 0.6)}, 80%, 60%, 0.35)`;

/// The bubbles of project `slug` for a room page; `changed()` after each change. Returns {receive(message)
/// (the room's messages), load(), drawn() → [{id, kind, points (room coordinates), tint}] (empty
/// until the device's frame is known), frame, count}.
export function roomBubbles(slug, changed) {
  const anchors = new Map();
  const bubbles = { frame: null, loaded: false };

  bubbles.load = async () => {
    const { anchors: list } = await api("GET", projectPath(slug, "anchors"));
    for (const anchor of list) if (isPane(anchor) || isTrail(anchor)) anchors.set(anchor.id, anchor);
    bubbles.loaded = true;
    changed();
  };

  bubbles.receive = (message) => {
    if (message.type === "anchor" && (isPane(message.anchor) || isTrail(message.anchor))) anchors.set(message.anchor.id, message.anchor);
    else if (message.type === "anchorDeleted" && anchors.has(message.id)) anchors.delete(message.id);
    else if (message.type === "projectFrame") bubbles.frame = message.position && message.orientation ? { position: message.position, orientation: unit(message.orientation) } : null;
    else return;
    changed();
  };

  bubbles.count = () => anchors.size;

  bubbles.drawn = () => {
    const frame = bubbles.frame;
    if (!frame) return [];
    return [...anchors.values()].map((anchor) => ({
      id: anchor.id, kind: anchor.payload.kind, tint: tint(anchor.payload),
      points: (isPane(anchor) ? paneCorners(anchor) : decodePoints(anchor.pose.position, anchor.payload.points)).map((point) => inRoom(frame, point)),
    }));
  };
  return bubbles;
}
