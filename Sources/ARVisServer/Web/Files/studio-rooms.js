// ARVis Studio's rooms, the remote expert's side: a device's session live — its camera moving in
// the 3D scene, its view where a click places an annotation (the server casts the ray through that
// frame), and the room's annotations listed and deletable. Also the room connection the planting
// page uses for trees planted by others.
"use strict";
(function (Studio) {
  const h = Studio.h;

  /// Joins room `room` of project `slug` as a member: `onMessage(json)` for text messages,
  /// `onPose(pose)` for pose packets; reconnects and resumes after the last event it saw.
  Studio.joinRoom = (slug, room, onMessage, onStatus, onPose) => {
    let socket = null, closed = false, since = null, retry = 0, timer = 0;
    const connect = () => {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live/" + encodeURIComponent(slug) + "/rooms/" + encodeURIComponent(room)
        + (since !== null ? "?since=" + since : "");
      const protocols = Studio.session.token ? ["arvis", "arvis.bearer." + Studio.session.token] : ["arvis"];
      socket = new WebSocket(url, protocols);
      socket.binaryType = "arraybuffer";
      socket.onopen = () => { retry = 0; onStatus && onStatus("live"); };
      socket.onmessage = (event) => {
        if (typeof event.data !== "string") { const pose = decodePose(event.data); if (pose && onPose) onPose(pose); return; }
        let message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        if (typeof message.seq === "number") since = Math.max(since || 0, message.seq);
        onMessage(message);
      };
      socket.onclose = (event) => {
        if (closed) return;
        // Refused, or access revoked while in the room (4003): joining again would be refused too.
        if (event.code === 1008 || event.code === 4003) { onStatus && onStatus("refused: " + (event.reason || "no access")); return; }
        onStatus && onStatus("reconnecting…");
        timer = setTimeout(connect, Math.min(10000, 500 * Math.pow(2, retry++)));
      };
    };
    connect();
    return {
      send: (message) => { if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; } return false; },
      close: () => { closed = true; clearTimeout(timer); if (socket) socket.close(1000, "left the page"); },
    };
  };

  /// An ARVis pose packet (62 bytes, little-endian): viewport, frame, time, position, orientation, intrinsics.
  function decodePose(buffer) {
    if (buffer.byteLength !== 62) return null;
    const view = new DataView(buffer);
    if (view.getUint8(0) !== 1) return null;
    const f = (offset) => view.getFloat32(offset, true);
    const x = f(30), y = f(34), z = f(38);
    return { viewport: [view.getUint16(2, true), view.getUint16(4, true)], frame: view.getUint32(6, true), time: view.getFloat64(10, true),
      position: [f(18), f(22), f(26)], orientation: [x, y, z, Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))], intrinsics: [f(42), f(46), f(50), f(54)] };
  }
  Studio.decodePose = decodePose;

  // --- A little 3D ---
  /// `v` turned by the unit quaternion `q` (x, y, z, w): v + 2w(q×v) + 2q×(q×v).
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const rotate = (q, v) => {
    const t = cross(q, v).map((c) => 2 * c), u = cross(q, t);
    return [v[0] + q[3] * t[0] + u[0], v[1] + q[3] * t[1] + u[1], v[2] + q[3] * t[2] + u[2]];
  };
  const conjugate = (q) => [-q[0], -q[1], -q[2], q[3]];
  const minus = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

  /// A point of the world in the camera's frame (it looks along −z, y up).
  const inCamera = (pose, point) => rotate(conjugate(pose.orientation), minus(point, pose.position));
  const near = -0.01;
  /// A point of the camera's frame in its view, in viewport points (the point is in front of it).
  const toView = (pose, local) => {
    const [fx, fy, cx, cy] = pose.intrinsics;
    return [fx * local[0] / -local[2] + cx, cy - fy * local[1] / -local[2]];
  };

  /// A point of the world in a pose's camera view, in viewport points, or null behind it.
  function toCamera(pose, point) {
    const local = inCamera(pose, point);
    return local[2] < near ? toView(pose, local) : null;
  }

  /// A segment of the world in a pose's camera view, cut where it passes behind the camera; or null.
  function segmentToCamera(pose, a, b) {
    let p = inCamera(pose, a), q = inCamera(pose, b);
    if (p[2] >= near && q[2] >= near) return null;
    const cut = (front, back) => { const t = (near - front[2]) / (back[2] - front[2]); return front.map((value, index) => value + t * (back[index] - value)); };
    if (p[2] >= near) p = cut(q, p); else if (q[2] >= near) q = cut(p, q);
    return [toView(pose, p), toView(pose, q)];
  }

  /// An orbit view of the room's scene: the floor, the device's camera and path, the annotations.
  class SceneView {
    constructor() {
      this.canvas = h("canvas", { class: "room-scene", tabindex: 0, role: "img", "aria-label": "The room's scene from above and aside: the device's camera, its path and the annotations. Drag or arrow keys turn it, wheel or plus and minus zoom." });
      this.yaw = 0.6; this.pitch = 0.5; this.distance = 6;
      let drag = null;
      this.canvas.addEventListener("pointerdown", (event) => { drag = [event.clientX, event.clientY]; this.canvas.setPointerCapture(event.pointerId); });
      this.canvas.addEventListener("pointermove", (event) => {
        if (!drag) return;
        this.yaw += (event.clientX - drag[0]) * 0.01; this.pitch = Math.max(-1.4, Math.min(1.4, this.pitch + (event.clientY - drag[1]) * 0.01));
        drag = [event.clientX, event.clientY]; this.draw();
      });
      this.canvas.addEventListener("pointerup", () => { drag = null; });
      this.canvas.addEventListener("wheel", (event) => { event.preventDefault(); this.distance = Math.max(1, Math.min(60, this.distance * (event.deltaY < 0 ? 0.9 : 1.1))); this.draw(); }, { passive: false });
      this.canvas.addEventListener("keydown", (event) => {
        const turns = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
        if (turns[event.key]) { event.preventDefault(); this.yaw += turns[event.key][0]; this.pitch = Math.max(-1.4, Math.min(1.4, this.pitch + turns[event.key][1])); this.draw(); }
        if (event.key === "+" || event.key === "=") { this.distance *= 0.9; this.draw(); }
        if (event.key === "-") { this.distance *= 1.1; this.draw(); }
      });
      this.pose = null; this.path = []; this.annotations = [];
      new ResizeObserver(() => this.draw()).observe(this.canvas);
    }

    screen(point) {
      const target = this.pose ? [this.pose.position[0], 0, this.pose.position[2]] : [0, 0, 0];
      const p = minus(point, target);
      const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw), cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
      const x = cy * p[0] - sy * p[2], z1 = sy * p[0] + cy * p[2];
      const y = cp * p[1] - sp * z1, z = sp * p[1] + cp * z1;
      const depth = this.distance - z;
      if (depth < 0.05) return null;
      const focal = Math.min(this.width, this.height) * 1.2;
      return [this.width / 2 + focal * x / depth, this.height / 2 - focal * y / depth];
    }

    line(g, a, b) {
      const p = this.screen(a), q = this.screen(b);
      if (!p || !q) return;
      g.moveTo(p[0], p[1]); g.lineTo(q[0], q[1]);
    }

    draw() {
      const surface = Studio.canvas2D(this.canvas);
      if (!surface) return;
      const g = surface.g;
      this.width = surface.width; this.height = surface.height;
      g.fillStyle = "#fbfbfd"; g.fillRect(0, 0, this.width, this.height);
      const centre = this.pose ? [Math.round(this.pose.position[0]), 0, Math.round(this.pose.position[2])] : [0, 0, 0];
      g.strokeStyle = "#dcdce3"; g.lineWidth = 1; g.beginPath();
      for (let i = -5; i <= 5; i++) {
        this.line(g, [centre[0] + i, 0, centre[2] - 5], [centre[0] + i, 0, centre[2] + 5]);
        this.line(g, [centre[0] - 5, 0, centre[2] + i], [centre[0] + 5, 0, centre[2] + i]);
      }
      g.stroke();
      [["#d32f2f", [1, 0, 0]], ["#388e3c", [0, 1, 0]], ["#1976d2", [0, 0, 1]]].forEach(([colour, axis]) => { g.strokeStyle = colour; g.lineWidth = 2; g.beginPath(); this.line(g, [0, 0, 0], axis); g.stroke(); });
      if (this.path.length > 1) {
        g.strokeStyle = "rgba(0,122,255,.45)"; g.lineWidth = 1.5; g.beginPath();
        for (let i = 1; i < this.path.length; i++) this.line(g, this.path[i - 1], this.path[i]);
        g.stroke();
      }
      if (this.pose) {
        const pose = this.pose, [w, hgt] = pose.viewport, [fx, fy, cx, cy] = pose.intrinsics, depth = 0.4;
        const corner = (u, v) => { const local = [(u - cx) / fx * depth, -(v - cy) / fy * depth, -depth]; const r = rotate(pose.orientation, local); return [r[0] + pose.position[0], r[1] + pose.position[1], r[2] + pose.position[2]]; };
        const corners = [corner(0, 0), corner(w, 0), corner(w, hgt), corner(0, hgt)];
        g.strokeStyle = "#007aff"; g.lineWidth = 2; g.beginPath();
        corners.forEach((c, i) => { this.line(g, pose.position, c); this.line(g, c, corners[(i + 1) % 4]); });
        g.stroke();
      }
      for (const annotation of this.annotations) {
        const p = annotation.position, s = this.screen([p.x, p.y || 0, p.z]);
        if (!s) continue;
        g.fillStyle = "#ff9500"; g.beginPath(); g.arc(s[0], s[1], 6, 0, 2 * Math.PI); g.fill();
        if (annotation.text) { g.fillStyle = "#1c1c1e"; g.font = "12px system-ui"; g.fillText(annotation.text, s[0] + 8, s[1] - 8); }
      }
    }
  }

  Studio.pages.rooms = async (project, rest) => {
    const slug = project.slug;
    if (!rest.length) {
      const name = Studio.field("Room", { value: "main", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", name: "room" });
      Studio.show("Rooms", Studio.projectNav(project, "rooms"), h("h1", {}, "Rooms of " + project.name),
        h("p", {}, "A room is a device's live session: its camera pose, the surfaces it found, and annotations placed by remote experts. A device joins with ?role=publisher."),
        h("form", { class: "card row", onsubmit: (event) => { event.preventDefault(); location.hash = "#/p/" + slug + "/rooms/" + encodeURIComponent(name.input.value.trim()); } },
          name.label, h("button", { type: "submit", class: "primary" }, "Join room")));
      return;
    }
    const room = rest[0], editable = Studio.canEdit(project);
    const annotations = new Map();
    const scene = new SceneView();
    const camera = h("canvas", { class: "room-camera", tabindex: 0, role: "application",
      "aria-label": "The device's camera view. Click, or press Enter for its centre, to place an annotation where that ray meets the world." });
    const status = h("p", { id: "room-status", class: "muted", role: "status", "aria-live": "polite" }, "Connecting…");
    const device = h("p", { id: "device-status", class: "muted" }, "Waiting for a device to publish its pose…");
    const label = Studio.field("Label of the next annotation", { maxlength: 2000, name: "annotation-text", value: "" });
    const list = h("ul", { class: "list", id: "annotations", "aria-label": "Annotations" });
    let pose = null, frames = 0, pending = 0;
    window.studioRoom = { frames: 0, annotations: 0 };

    const refresh = () => {
      scene.annotations = [...annotations.values()];
      list.replaceChildren(...scene.annotations.map((annotation) => h("li", { dataset: { id: annotation.id } },
        h("strong", {}, annotation.text || "(no label)"), " at " + [annotation.position.x, annotation.position.y || 0, annotation.position.z].map((v) => v.toFixed(2)).join(", ")
          + " m · " + (annotation.author || "—") + " ",
        editable ? h("button", { type: "button", onclick: () => connection.send({ type: "deleteAnnotation", id: annotation.id, clientId: "delete-" + annotation.id }) },
          "Delete " + (annotation.text || "annotation")) : null)));
      if (!annotations.size) list.append(h("li", { class: "muted" }, "No annotations yet."));
      window.studioRoom.annotations = annotations.size;
      scene.draw(); drawCamera();
    };

    function drawCamera() {
      const surface = Studio.canvas2D(camera);
      if (!surface) return;
      const { g, width, height } = surface;
      g.fillStyle = "#1c1c1e"; g.fillRect(0, 0, width, height);
      if (!pose) { g.fillStyle = "#aeaeb2"; g.font = "14px system-ui"; g.fillText("No camera yet", 12, 24); return; }
      const [vw, vh] = pose.viewport, scale = Math.min(width / vw, height / vh), ox = (width - vw * scale) / 2, oy = (height - vh * scale) / 2;
      g.fillStyle = "#2c2c2e"; g.fillRect(ox, oy, vw * scale, vh * scale);
      // The floor as the camera sees it, so the view reads as a place.
      g.strokeStyle = "rgba(255,255,255,.18)"; g.beginPath();
      const base = [Math.round(pose.position[0]), 0, Math.round(pose.position[2])];
      for (let i = -6; i <= 6; i++) {
        for (const [a, b] of [[[base[0] + i, 0, base[2] - 6], [base[0] + i, 0, base[2] + 6]], [[base[0] - 6, 0, base[2] + i], [base[0] + 6, 0, base[2] + i]]]) {
          const segment = segmentToCamera(pose, a, b);
          if (segment) { g.moveTo(ox + segment[0][0] * scale, oy + segment[0][1] * scale); g.lineTo(ox + segment[1][0] * scale, oy + segment[1][1] * scale); }
        }
      }
      g.stroke();
      for (const annotation of annotations.values()) {
        const p = toCamera(pose, [annotation.position.x, annotation.position.y || 0, annotation.position.z]);
        if (!p) continue;
        g.fillStyle = "#ff9500"; g.beginPath(); g.arc(ox + p[0] * scale, oy + p[1] * scale, 7, 0, 2 * Math.PI); g.fill();
        if (annotation.text) { g.fillStyle = "#fff"; g.font = "13px system-ui"; g.fillText(annotation.text, ox + p[0] * scale + 10, oy + p[1] * scale - 8); }
      }
      g.strokeStyle = "rgba(255,255,255,.5)"; g.beginPath(); g.moveTo(width / 2 - 8, height / 2); g.lineTo(width / 2 + 8, height / 2); g.moveTo(width / 2, height / 2 - 8); g.lineTo(width / 2, height / 2 + 8); g.stroke();
    }

    const annotate = (tap) => {
      if (!pose) { Studio.say("No device has published a pose in this room yet.", "error"); return; }
      if (!editable) { Studio.say("Annotating needs the editor role.", "error"); return; }
      const message = { type: "annotate", tap, frame: pose.frame, clientId: "studio-" + Date.now() + "-" + (++pending) };
      const text = label.input.value.trim();
      if (text) message.text = text;
      if (connection.send(message)) Studio.say("Annotation sent.");
    };
    camera.addEventListener("click", (event) => {
      if (!pose) return annotate(null);
      const rect = camera.getBoundingClientRect(), [vw, vh] = pose.viewport;
      const scale = Math.min(rect.width / vw, rect.height / vh), ox = (rect.width - vw * scale) / 2, oy = (rect.height - vh * scale) / 2;
      const u = (event.clientX - rect.left - ox) / (vw * scale), v = (event.clientY - rect.top - oy) / (vh * scale);
      if (u < 0 || u > 1 || v < 0 || v > 1) return;
      annotate([u, v]);
    });
    camera.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); annotate([0.5, 0.5]); } });
    new ResizeObserver(drawCamera).observe(camera);

    const connection = Studio.joinRoom(slug, room, (message) => {
      if (message.type === "welcome" && message.annotations) { annotations.clear(); message.annotations.forEach((annotation) => annotations.set(annotation.id, annotation)); refresh(); }
      else if (message.type === "annotation") { annotations.set(message.annotation.id, message.annotation); refresh(); }
      else if (message.type === "annotationDeleted") { annotations.delete(message.id); refresh(); }
      else if (message.type === "refused") Studio.say("Refused: " + message.message, "error");
    }, (text) => { status.textContent = "Room " + room + ": " + text; }, (next) => {
      pose = next; frames++;
      window.studioRoom.frames = frames;
      scene.pose = next;
      scene.path.push(next.position.slice()); if (scene.path.length > 600) scene.path.shift();
      device.textContent = "Device: frame " + next.frame + " at " + next.position.map((v) => v.toFixed(2)).join(", ") + " m";
      if (!drawPending) { drawPending = true; requestAnimationFrame(() => { drawPending = false; scene.draw(); drawCamera(); }); }
    });
    let drawPending = false;
    Studio.onLeave(() => connection.close());

    Studio.show("Room " + room, Studio.projectNav(project, "rooms"), h("h1", {}, "Room " + room), status, device,
      h("div", { class: "room" },
        h("section", { "aria-label": "Camera view" }, h("h2", {}, "Camera view"), camera, label.label),
        h("section", { "aria-label": "Scene" }, h("h2", {}, "Scene"), scene.canvas)),
      h("section", { class: "card" }, h("h2", {}, "Annotations"), list));
    refresh();
  };
})(window.Studio);
