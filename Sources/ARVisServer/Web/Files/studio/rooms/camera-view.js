// The device's camera view on a canvas: its live video when it shares one, else a dark picture of
// its viewport; over it the floor and the annotations as that camera sees them — with the pose of
// the very frame shown (each video frame carries its own), or the latest pose over the socket when
// there is no video. A click, or Enter for the centre, is a tap in that view.

import { likelyBands, readTagFromBytes } from "../../media/frame-tag.js";
import { canvas2D, h } from "../core/dom.js";
import { letterbox, segmentToCamera, tapAt, toCamera } from "./camera-math.js";

const position = (annotation) => [annotation.position.x, annotation.position.y || 0, annotation.position.z];
/// How many shown frames the view remembers for its statistics.
const remembered = 1200;

/// The rows under the picture a frame `width` × `height` has when its pose names the picture's
/// size (`viewport`): the frame's height beyond the picture's at the frame's scale (0 for a
/// publisher that draws no tag).
export const rowsBelow = (width, height, viewport) => Math.max(0, Math.round(height - width * viewport[1] / viewport[0]));

/// The frame tag under a picture `width` × `height`: {tag, rows} — the counter and the band's
/// height, or {tag: null, rows: 0} without one. `rowsOf(top, count)`: the picture's RGBA bytes
/// from row `top`, `count` rows; `candidates`: the band heights to try.
function readBand(rowsOf, width, height, candidates) {
  const deepest = Math.max(0, ...candidates.filter((rows) => rows > 1 && rows < height));
  if (!deepest) return { tag: null, rows: 0 };
  const pixels = rowsOf(height - deepest, deepest);
  for (const rows of candidates) {
    if (rows < 2 || rows > deepest) continue;
    const tag = readTagFromBytes(pixels, { width, stride: width * 4, top: deepest - rows, rows, channels: 4 });
    if (tag !== null) return { tag, rows };
  }
  return { tag: null, rows: 0 };
}

/// Draws `picture` (`width` × `height`, anything drawImage takes) on `canvas`, of its size, and
/// returns `rowsOf` (readBand's). A VideoFrame is converted to RGBA by the browser and put on
/// the canvas, its rows read from those bytes: drawImage converts a frame several times slower
/// in a page without a GPU. `bytes`: a buffer to reuse, or null. Asynchronous: a VideoFrame
/// stays open until it settles.
async function drawPicture(canvas, picture, width, height, bytes) {
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const rect = picture.visibleRect;
  if (typeof picture.copyTo === "function" && rect && rect.width === width && rect.height === height) {
    const rgba = bytes && bytes.length === width * height * 4 ? bytes : new Uint8ClampedArray(width * height * 4);
    try {
      await picture.copyTo(rgba, { format: "RGBA", colorSpace: "srgb" });
      g.putImageData(new ImageData(rgba, width, height), 0, 0);
      return { bytes: rgba, rowsOf: (top, count) => rgba.subarray(top * width * 4, (top + count) * width * 4) };
    } catch (error) {
      // A browser without the conversion draws the frame instead.
    }
  }
  g.drawImage(picture, 0, 0, width, height);
  return { bytes, rowsOf: (top, count) => g.getImageData(0, top, width, count).data };
}

/// How long a mark stays in a picture without a pose, in milliseconds.
export const markLifetime = 30000;

export class CameraView {
  /// `onTap([u, v], where)` for a click in the picture or Enter (its centre): `where` is "world"
  /// when there is a pose to place it with, "picture" on a video without one; `onTap(null)` for a
  /// click with neither.
  constructor(onTap) {
    this.pose = null;
    this.annotations = [];
    this.bubbles = [];
    this.marks = [];
    this.video = null;
    this.frozen = false;
    this.picture = document.createElement("canvas");
    this.bytes = null;
    this.stats = { shown: 0, withPose: 0, tagged: 0, mismatches: 0, recent: [] };
    this.canvas = h("canvas", { class: "room-camera", tabindex: 0, role: "application",
      "aria-label": "The device's camera view. Click, or press Enter for its centre, to place an annotation where that ray meets the world (on a video without a pose, to mark the picture)." });
    this.canvas.addEventListener("click", (event) => {
      const size = this.tapSize;
      if (!size) { onTap(null); return; }
      const rect = this.canvas.getBoundingClientRect();
      const tap = tapAt(event.clientX - rect.left, event.clientY - rect.top, rect.width, rect.height, size);
      if (tap) onTap(tap, this.viewPose ? "world" : "picture");
    });
    this.canvas.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      onTap(this.tapSize ? [0.5, 0.5] : null, this.viewPose ? "world" : "picture");
    });
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  /// The pose the view is drawn with and a click is placed with: the shown video frame's own while
  /// there is video, else the latest over the socket.
  get viewPose() { return this.video ? this.video.pose : this.pose; }

  /// The size a tap is normalised to: the pose's viewport, else the video's picture; null with neither.
  get tapSize() { const pose = this.viewPose; return pose ? pose.viewport : this.video ? this.video.size : null; }

  /// Keeps a mark made in the picture ({tap, text, at}) for `markLifetime`.
  addMark(mark) {
    const now = Date.now();
    this.marks = this.marks.filter((kept) => now - kept.shownAt < markLifetime).concat([{ ...mark, shownAt: now }]);
    this.draw();
  }

  /// Shows a video frame (`picture`, anything drawImage takes) with its metadata ({counter, pose,
  /// packet} or null; `store`, a FrameMetadata, finds it by the picture's tag when the browser
  /// gave no RTP timestamp); nothing while frozen. The frame tag under the picture is read,
  /// checked against the metadata's counter, and left out of the view. Returns a promise: the
  /// picture is read once it settles (keep a VideoFrame open until then).
  async show(picture, metadata, store = null) {
    if (this.frozen) return;
    const width = picture.displayWidth || picture.videoWidth, height = picture.displayHeight || picture.videoHeight;
    if (!width || !height) return;
    if (this.picture.width !== width || this.picture.height !== height) Object.assign(this.picture, { width, height });
    const drawn = await drawPicture(this.picture, picture, width, height, this.bytes);
    this.bytes = drawn.bytes;
    let pose = (metadata && metadata.pose) || null;
    const below = pose ? rowsBelow(width, height, pose.viewport) : 0;
    const band = readBand(drawn.rowsOf, width, height, pose ? [below] : likelyBands(height));
    if (!metadata && store && band.tag !== null) {
      metadata = store.ofCounter(band.tag);
      pose = (metadata && metadata.pose) || null;
    }
    // With a pose, the rows under the picture are known even when the tag does not read.
    const rows = pose ? rowsBelow(width, height, pose.viewport) : band.rows;
    const counter = metadata ? metadata.counter : null;
    this.video = { pose, packet: (metadata && metadata.packet) || null, tag: band.tag, counter, size: [width, height - rows] };
    this.stats.size = this.video.size;
    this.count(band.tag, counter, metadata ? metadata.receivedAt : null);
    this.draw();
  }

  /// Counts a shown frame: with a pose, with a tag, and whether its tag and metadata disagree;
  /// remembers [tag, metadata's counter, shown at, received at] (ms since the epoch).
  count(tag, counter, receivedAt) {
    const stats = this.stats;
    stats.shown++;
    if (this.video.pose) stats.withPose++;
    if (tag !== null) stats.tagged++;
    if (tag !== null && counter !== null && tag !== counter) stats.mismatches++;
    stats.recent.push([tag, counter, Date.now(), receivedAt]);
    if (stats.recent.length > remembered) stats.recent.splice(0, stats.recent.length - remembered);
  }

  draw() {
    const surface = canvas2D(this.canvas);
    if (!surface) return;
    const { g, width, height } = surface, pose = this.viewPose, video = this.video;
    g.fillStyle = "#1c1c1e"; g.fillRect(0, 0, width, height);
    if (!pose && !video) { this.caption(g, "No camera yet"); return; }
    const size = pose ? pose.viewport : video.size, box = letterbox(width, height, size);
    if (video) g.drawImage(this.picture, 0, 0, video.size[0], video.size[1], box.ox, box.oy, size[0] * box.scale, size[1] * box.scale);
    else { g.fillStyle = "#2c2c2e"; g.fillRect(box.ox, box.oy, size[0] * box.scale, size[1] * box.scale); }
    if (pose) { this.drawFloor(g, pose, box); this.drawBubbles(g, pose, box); this.drawAnnotations(g, pose, box); }
    else { this.drawMarks(g, size, box); this.caption(g, "This video carries no pose: a click marks the picture for 30 s, not the device's world."); }
    if (this.frozen) this.caption(g, "Frozen frame — annotate on it, then resume", height - 12);
    g.strokeStyle = "rgba(255,255,255,.5)"; g.beginPath(); g.moveTo(width / 2 - 8, height / 2); g.lineTo(width / 2 + 8, height / 2); g.moveTo(width / 2, height / 2 - 8); g.lineTo(width / 2, height / 2 + 8); g.stroke();
  }

  /// The marks made in the picture, where they were made (they do not follow the world).
  drawMarks(g, size, { scale, ox, oy }) {
    const now = Date.now();
    this.marks = this.marks.filter((mark) => now - mark.shownAt < markLifetime);
    for (const mark of this.marks) {
      const x = ox + mark.tap[0] * size[0] * scale, y = oy + mark.tap[1] * size[1] * scale;
      g.strokeStyle = "#ff9500"; g.lineWidth = 3; g.beginPath(); g.arc(x, y, 12, 0, 2 * Math.PI); g.stroke(); g.lineWidth = 1;
      if (mark.text) { g.fillStyle = "#fff"; g.font = "13px system-ui"; g.fillText(mark.text, x + 16, y - 10); }
    }
  }

  caption(g, text, y = 24) {
    g.font = "14px system-ui";
    g.fillStyle = "rgba(0,0,0,.6)"; g.fillRect(6, y - 17, g.measureText(text).width + 12, 24);
    g.fillStyle = "#f2f2f7"; g.fillText(text, 12, y);
  }

  /// The floor as the camera sees it, so the view reads as a place.
  drawFloor(g, pose, { scale, ox, oy }) {
    g.strokeStyle = "rgba(255,255,255,.18)"; g.beginPath();
    const base = [Math.round(pose.position[0]), 0, Math.round(pose.position[2])];
    for (let i = -6; i <= 6; i++) {
      for (const [a, b] of [[[base[0] + i, 0, base[2] - 6], [base[0] + i, 0, base[2] + 6]], [[base[0] - 6, 0, base[2] + i], [base[0] + 6, 0, base[2] + i]]]) {
        const segment = segmentToCamera(pose, a, b);
        if (segment) { g.moveTo(ox + segment[0][0] * scale, oy + segment[0][1] * scale); g.lineTo(ox + segment[1][0] * scale, oy + segment[1][1] * scale); }
      }
    }
    g.stroke();
  }

  /// The project's bubbles as this camera sees them: a pane wholly in front of it filled with the
  /// film's tint, every edge in front of it drawn (cut where it passes behind).
  drawBubbles(g, pose, { scale, ox, oy }) {
    for (const bubble of this.bubbles) {
      const closed = bubble.kind === "pane", points = bubble.points, seen = points.map((point) => toCamera(pose, point));
      g.strokeStyle = bubble.tint; g.lineWidth = closed ? 2 : 5;
      if (closed && seen.every(Boolean)) {
        g.beginPath();
        seen.forEach(([x, y], k) => (k ? g.lineTo(ox + x * scale, oy + y * scale) : g.moveTo(ox + x * scale, oy + y * scale)));
        g.closePath(); g.fillStyle = bubble.tint; g.fill(); g.stroke();
        continue;
      }
      g.beginPath();
      for (let k = 1; k < points.length + (closed ? 1 : 0); k++) {
        const segment = segmentToCamera(pose, points[k - 1], points[k % points.length]);
        if (segment) { g.moveTo(ox + segment[0][0] * scale, oy + segment[0][1] * scale); g.lineTo(ox + segment[1][0] * scale, oy + segment[1][1] * scale); }
      }
      g.stroke();
    }
    g.lineWidth = 1;
  }

  drawAnnotations(g, pose, { scale, ox, oy }) {
    for (const annotation of this.annotations) {
      const p = toCamera(pose, position(annotation));
      if (!p) continue;
      g.fillStyle = "#ff9500"; g.beginPath(); g.arc(ox + p[0] * scale, oy + p[1] * scale, 7, 0, 2 * Math.PI); g.fill();
      if (annotation.text) { g.fillStyle = "#fff"; g.font = "13px system-ui"; g.fillText(annotation.text, ox + p[0] * scale + 10, oy + p[1] * scale - 8); }
    }
  }
}
