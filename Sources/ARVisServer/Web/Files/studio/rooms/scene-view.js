// An orbit view of a room's scene on a canvas: the floor, the device's camera and path, the
// annotations and the project's bubbles (room-bubbles.js). Dragging, the arrow keys, the wheel and plus and minus turn and zoom it.

import { canvas2D, h } from "../core/dom.js";
import { orbitToScreen, viewCorner } from "./camera-math.js";

const clampPitch = (pitch) => Math.max(-1.4, Math.min(1.4, pitch));

export class SceneView {
  constructor() {
    this.canvas = h("canvas", { class: "room-scene", tabindex: 0, role: "img", "aria-label": "The room's scene from above and aside: the device's camera, its path and the annotations. Drag or arrow keys turn it, wheel or plus and minus zoom." });
    this.yaw = 0.6; this.pitch = 0.5; this.distance = 6;
    this.pose = null; this.path = []; this.annotations = []; this.bubbles = [];
    this.listen();
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  listen() {
    let drag = null;
    this.canvas.addEventListener("pointerdown", (event) => { drag = [event.clientX, event.clientY]; this.canvas.setPointerCapture(event.pointerId); });
    this.canvas.addEventListener("pointermove", (event) => {
      if (!drag) return;
      this.yaw += (event.clientX - drag[0]) * 0.01; this.pitch = clampPitch(this.pitch + (event.clientY - drag[1]) * 0.01);
      drag = [event.clientX, event.clientY]; this.draw();
    });
    this.canvas.addEventListener("pointerup", () => { drag = null; });
    this.canvas.addEventListener("wheel", (event) => { event.preventDefault(); this.distance = Math.max(1, Math.min(60, this.distance * (event.deltaY < 0 ? 0.9 : 1.1))); this.draw(); }, { passive: false });
    this.canvas.addEventListener("keydown", (event) => {
      const turns = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
      if (turns[event.key]) { event.preventDefault(); this.yaw += turns[event.key][0]; this.pitch = clampPitch(this.pitch + turns[event.key][1]); this.draw(); }
      if (event.key === "+" || event.key === "=") { this.distance *= 0.9; this.draw(); }
      if (event.key === "-") { this.distance *= 1.1; this.draw(); }
    });
  }

  /// A point of the world on the canvas, looking at the floor under the device; null behind the eye.
  screen(point) {
    const target = this.pose ? [this.pose.position[0], 0, this.pose.position[2]] : [0, 0, 0];
    return orbitToScreen(point, { target, yaw: this.yaw, pitch: this.pitch, distance: this.distance, width: this.width, height: this.height });
  }

  line(g, a, b) {
    const p = this.screen(a), q = this.screen(b);
    if (!p || !q) return;
    g.moveTo(p[0], p[1]); g.lineTo(q[0], q[1]);
  }

  draw() {
    const surface = canvas2D(this.canvas);
    if (!surface) return;
    const g = surface.g;
    this.width = surface.width; this.height = surface.height;
    g.fillStyle = "#fbfbfd"; g.fillRect(0, 0, this.width, this.height);
    this.drawFloor(g);
    this.drawPath(g);
    this.drawBubbles(g);
    if (this.pose) this.drawCamera(g, this.pose);
    this.drawAnnotations(g);
  }

  /// Each pane as its outline filled with the film's tint, each trail as a line along its path.
  drawBubbles(g) {
    for (const bubble of this.bubbles) {
      const points = bubble.points.map((point) => this.screen(point));
      if (points.some((point) => !point)) continue;
      g.beginPath();
      points.forEach(([x, y], k) => (k ? g.lineTo(x, y) : g.moveTo(x, y)));
      if (bubble.kind === "pane") { g.closePath(); g.fillStyle = bubble.tint; g.fill(); }
      g.strokeStyle = bubble.tint; g.lineWidth = bubble.kind === "pane" ? 1.5 : 4; g.stroke(); g.lineWidth = 1;
    }
  }

  /// A 10 m grid under the device, and the world's axes.
  drawFloor(g) {
    const centre = this.pose ? [Math.round(this.pose.position[0]), 0, Math.round(this.pose.position[2])] : [0, 0, 0];
    g.strokeStyle = "#dcdce3"; g.lineWidth = 1; g.beginPath();
    for (let i = -5; i <= 5; i++) {
      this.line(g, [centre[0] + i, 0, centre[2] - 5], [centre[0] + i, 0, centre[2] + 5]);
      this.line(g, [centre[0] - 5, 0, centre[2] + i], [centre[0] + 5, 0, centre[2] + i]);
    }
    g.stroke();
    [["#d32f2f", [1, 0, 0]], ["#388e3c", [0, 1, 0]], ["#1976d2", [0, 0, 1]]].forEach(([colour, axis]) => { g.strokeStyle = colour; g.lineWidth = 2; g.beginPath(); this.line(g, [0, 0, 0], axis); g.stroke(); });
  }

  drawPath(g) {
    if (this.path.length <= 1) return;
    g.strokeStyle = "rgba(0,122,255,.45)"; g.lineWidth = 1.5; g.beginPath();
    for (let i = 1; i < this.path.length; i++) this.line(g, this.path[i - 1], this.path[i]);
    g.stroke();
  }

  /// The device's camera as a frustum 40 cm deep.
  drawCamera(g, pose) {
    const [w, hgt] = pose.viewport, depth = 0.4;
    const corners = [viewCorner(pose, 0, 0, depth), viewCorner(pose, w, 0, depth), viewCorner(pose, w, hgt, depth), viewCorner(pose, 0, hgt, depth)];
    g.strokeStyle = "#007aff"; g.lineWidth = 2; g.beginPath();
    corners.forEach((c, i) => { this.line(g, pose.position, c); this.line(g, c, corners[(i + 1) % 4]); });
    g.stroke();
  }

  drawAnnotations(g) {
    for (const annotation of this.annotations) {
      const p = annotation.position, s = this.screen([p.x, p.y || 0, p.z]);
      if (!s) continue;
      g.fillStyle = "#ff9500"; g.beginPath(); g.arc(s[0], s[1], 6, 0, 2 * Math.PI); g.fill();
      if (annotation.text) { g.fillStyle = "#1c1c1e"; g.font = "12px system-ui"; g.fillText(annotation.text, s[0] + 8, s[1] - 8); }
    }
  }
}
