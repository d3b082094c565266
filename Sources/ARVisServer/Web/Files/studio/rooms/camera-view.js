// The device's camera view on a canvas: the floor and the annotations as the camera sees them,
// letterboxed to its viewport. A click, or Enter for the centre, is a tap in that view.

import { canvas2D, h } from "../core/dom.js";
import { letterbox, segmentToCamera, tapAt, toCamera } from "./camera-math.js";

const position = (annotation) => [annotation.position.x, annotation.position.y || 0, annotation.position.z];

export class CameraView {
  /// `onTap([u, v])` for a click in the picture or Enter (its centre); `onTap(null)` for a click
  /// while there is no pose yet.
  constructor(onTap) {
    this.pose = null;
    this.annotations = [];
    this.canvas = h("canvas", { class: "room-camera", tabindex: 0, role: "application",
      "aria-label": "The device's camera view. Click, or press Enter for its centre, to place an annotation where that ray meets the world." });
    this.canvas.addEventListener("click", (event) => {
      if (!this.pose) { onTap(null); return; }
      const rect = this.canvas.getBoundingClientRect();
      const tap = tapAt(event.clientX - rect.left, event.clientY - rect.top, rect.width, rect.height, this.pose.viewport);
      if (tap) onTap(tap);
    });
    this.canvas.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onTap([0.5, 0.5]); } });
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  draw() {
    const surface = canvas2D(this.canvas);
    if (!surface) return;
    const { g, width, height } = surface, pose = this.pose;
    g.fillStyle = "#1c1c1e"; g.fillRect(0, 0, width, height);
    if (!pose) { g.fillStyle = "#aeaeb2"; g.font = "14px system-ui"; g.fillText("No camera yet", 12, 24); return; }
    const box = letterbox(width, height, pose.viewport);
    g.fillStyle = "#2c2c2e"; g.fillRect(box.ox, box.oy, pose.viewport[0] * box.scale, pose.viewport[1] * box.scale);
    this.drawFloor(g, pose, box);
    this.drawAnnotations(g, pose, box);
    g.strokeStyle = "rgba(255,255,255,.5)"; g.beginPath(); g.moveTo(width / 2 - 8, height / 2); g.lineTo(width / 2 + 8, height / 2); g.moveTo(width / 2, height / 2 - 8); g.lineTo(width / 2, height / 2 + 8); g.stroke();
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

  drawAnnotations(g, pose, { scale, ox, oy }) {
    for (const annotation of this.annotations) {
      const p = toCamera(pose, position(annotation));
      if (!p) continue;
      g.fillStyle = "#ff9500"; g.beginPath(); g.arc(ox + p[0] * scale, oy + p[1] * scale, 7, 0, 2 * Math.PI); g.fill();
      if (annotation.text) { g.fillStyle = "#fff"; g.font = "13px system-ui"; g.fillText(annotation.text, ox + p[0] * scale + 10, oy + p[1] * scale - 8); }
    }
  }
}
