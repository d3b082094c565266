// A project's rooms, the remote expert's side: a device's session live — its video with the pose
// of every frame, its camera moving in the 3D scene, its view where a click places an annotation
// (the ray through the pixel of the frame shown, from that frame's pose), a frame frozen to
// annotate on, the room's annotations listed and deletable, the project's bubbles where the device
// sees them (once it has found the project's frame), and (owners) the links devices join with. A browser with a camera can publish in the room too (without a pose: a click on its video
// marks the picture instead, for every member, for 30 s).

import { api, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { onLeave, projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { say } from "../core/toast.js";
import { CameraView } from "./camera-view.js";
import { joinRoom } from "./connection.js";
import { cameraButton } from "./camera-button.js";
import { watchVideo } from "./expert-video.js";
import { RoomMembers } from "../../media/camera-share.js";
import { base64Of } from "../../media/frame-metadata.js";
import { maxPeers } from "../../media/room-video.js";
import { roomBubbles } from "./room-bubbles.js";
import { roomLinksCard } from "./room-links.js";
import { SceneView } from "./scene-view.js";

/// The form that opens a room by name.
function chooseRoom(project) {
  const slug = project.slug;
  const name = field("Room", { value: "main", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", name: "room" });
  show("Rooms", projectNav(project, "rooms"), h("h1", {}, "Rooms of " + project.name),
    h("p", {}, "A room is a device's live session: its camera pose, the surfaces it found, and annotations placed by remote experts. A device joins with ?role=publisher."),
    h("form", { class: "card row", onsubmit: (event) => { event.preventDefault(); location.hash = "#/p/" + slug + "/rooms/" + encodeURIComponent(name.input.value.trim()); } },
      name.label, h("button", { type: "submit", class: "primary" }, "Join room")));
}

/// The list of the room's annotations, each deletable by editors with `remove(annotation)`.
function annotationItems(annotations, remove) {
  const items = annotations.map((annotation) => h("li", { dataset: { id: annotation.id } },
    h("strong", {}, annotation.text || "(no label)"), " at " + [annotation.position.x, annotation.position.y || 0, annotation.position.z].map((v) => v.toFixed(2)).join(", ")
      + " m · " + (annotation.author || "—") + " ",
    remove ? h("button", { type: "button", onclick: () => remove(annotation) }, "Delete " + (annotation.text || "annotation")) : null));
  return items.length ? items : [h("li", { class: "muted" }, "No annotations yet.")];
}

export async function roomsPage(project, rest) {
  if (!rest.length) { chooseRoom(project); return; }
  const slug = project.slug, room = rest[0], editable = canEdit(project);
  const annotations = new Map();
  const scene = new SceneView();
  const camera = new CameraView((tap, where) => (where === "picture" ? mark(tap) : annotate(tap)));
  const status = h("p", { id: "room-status", class: "muted", role: "status", "aria-live": "polite" }, "Connecting…");
  const device = h("p", { id: "device-status", class: "muted" }, "Waiting for a device to publish its pose…");
  const label = field("Label of the next annotation", { maxlength: 2000, name: "annotation-text", value: "" });
  const target = h("select", { name: "annotation-target" },
    h("option", { value: "floor" }, "On the surfaces found, else the floor"),
    h("option", { value: "planes" }, "On the surfaces found, else 2 m away"),
    h("option", { value: "depth" }, "At the depth below"));
  const depth = field("Depth in metres", { type: "number", min: 0.1, max: 1000, step: 0.1, value: 2, name: "annotation-depth" });
  const freeze = h("button", { type: "button", "aria-pressed": "false", onclick: () => toggleFreeze() }, "Freeze frame");
  const videoStatus = h("p", { id: "video-status", class: "muted", role: "status" }, "No video in this room yet.");
  const list = h("ul", { class: "list", id: "annotations", "aria-label": "Annotations" });
  let frames = 0, pending = 0, drawPending = false, sceneStale = false, lastShown = -Infinity, deviceLineAt = -Infinity;
  const drawStaleScene = () => { if (sceneStale) { sceneStale = false; scene.draw(); } };
  window.studioRoom = { frames: 0, annotations: 0, device: "none", video: camera.stats, videoState: "none", sent: [], placed: {}, marks: [], bubbles: { frame: null, drawn: [] } };
  const bubbles = roomBubbles(slug, () => {
    scene.bubbles = camera.bubbles = bubbles.drawn();
    window.studioRoom.bubbles = { frame: bubbles.frame, count: bubbles.count(), drawn: scene.bubbles.map(({ id, kind, points }) => ({ id, kind, points })) };
    scene.draw(); camera.draw();
  });

  const remove = editable ? (annotation) => connection.send({ type: "deleteAnnotation", id: annotation.id, clientId: "delete-" + annotation.id }) : null;
  const refresh = () => {
    scene.annotations = camera.annotations = [...annotations.values()];
    list.replaceChildren(...annotationItems(scene.annotations, remove));
    window.studioRoom.annotations = annotations.size;
    scene.draw(); camera.draw();
  };

  function annotate(tap) {
    const pose = camera.viewPose;
    if (!pose) { say("No device has published a pose in this room yet.", "error"); return; }
    if (!editable) { say("Annotating needs the editor role.", "error"); return; }
    const message = { type: "annotate", tap, frame: pose.frame, clientId: "studio-" + Date.now() + "-" + (++pending) };
    // On video, the ray goes through the camera of the frame shown: its own pose travels along.
    if (camera.video && camera.video.packet) message.pose = base64Of(camera.video.packet);
    if (target.value === "floor") message.onFloor = true;
    if (target.value === "depth") message.depth = Number(depth.input.value) || 2;
    const text = label.input.value.trim();
    if (text) message.text = text;
    if (connection.send(message)) {
      const latest = camera.pose && { position: camera.pose.position, orientation: camera.pose.orientation, frame: camera.pose.frame };
      window.studioRoom.sent.push({ clientId: message.clientId, tap, frame: pose.frame, tag: camera.video ? camera.video.tag : null, latest, at: Date.now() });
      say("Annotation sent.");
    }
  }

  /// A click on a video without a pose: a mark in the picture, for every member, for 30 s.
  function mark(tap) {
    if (!editable) { say("Marking the picture needs the editor role.", "error"); return; }
    const message = { type: "mark", tap, clientId: "studio-mark-" + Date.now() + "-" + (++pending) };
    const text = label.input.value.trim();
    if (text) message.text = text;
    if (connection.send(message)) {
      window.studioRoom.sent.push({ clientId: message.clientId, tap, mark: true, at: Date.now() });
      say("Marked in the picture: the video carries no pose, so the mark stays where it was made for 30 s.");
    }
  }

  function toggleFreeze() {
    camera.frozen = !camera.frozen;
    freeze.setAttribute("aria-pressed", String(camera.frozen));
    freeze.textContent = camera.frozen ? "Resume video" : "Freeze frame";
    camera.draw();
  }

  const members = new RoomMembers();
  const video = watchVideo({
    room: members,
    send: (message) => connection.send(message),
    // The scene is drawn with each shown frame while video comes: one redraw of the page for both.
    onFrame: (picture, metadata, store) => camera.show(picture, metadata, store).then(() => {
      lastShown = performance.now();
      drawStaleScene();
    }),
    onState: (state, path) => {
      window.studioRoom.videoState = state;
      window.studioRoom.videoPath = path || null;
      const via = { relay: " Relayed through the TURN server.", direct: " Peer to peer.", sfu: " Forwarded by the SFU (Janus)." }[path] || "";
      videoStatus.textContent = { connecting: "Video: connecting…", waiting: "Video: waiting for a place — the device sends its video to " + maxPeers + " experts at most; it comes here when one leaves.", live: "Video: live, each frame with its own pose." + via, ended: "Video: the device stopped sending; its last frame stays.", none: "No video in this room yet." }[state];
    },
  });

  // Who publishes in the room: its pose stays on screen when it leaves, marked disconnected.
  let lastFrame = null;
  const showDevice = () => {
    const connected = members.hasPublisher;
    window.studioRoom.device = connected ? "connected" : lastFrame === null ? "none" : "disconnected";
    device.classList.toggle("error", !connected && lastFrame !== null);
    if (!connected) device.textContent = lastFrame === null ? "Waiting for a device to publish its pose…" : "Device disconnected: showing its last frame (" + lastFrame + "). It resumes here when it comes back.";
    else if (lastFrame === null) device.textContent = "Device connected: waiting for its pose…";
  };
  const onMessage = (message) => {
    if (members.read(message)) showDevice();
    video.receive(message);
    bubbles.receive(message);
    if (message.type === "welcome" && message.annotations) { annotations.clear(); message.annotations.forEach((annotation) => annotations.set(annotation.id, annotation)); refresh(); }
    else if (message.type === "annotation") {
      annotations.set(message.annotation.id, message.annotation);
      if (message.annotation.clientId) window.studioRoom.placed[message.annotation.clientId] = message.annotation;
      refresh();
    }
    else if (message.type === "annotationDeleted") { annotations.delete(message.id); refresh(); }
    else if (message.type === "mark") { camera.addMark(message); window.studioRoom.marks.push([message.clientId, message.tap, Date.now()]); }
    else if (message.type === "refused") say("Refused: " + message.message, "error");
  };
  const onPose = (next) => {
    camera.pose = next; frames++;
    window.studioRoom.frames = frames;
    scene.pose = next;
    scene.path.push(next.position.slice()); if (scene.path.length > 600) scene.path.shift();
    lastFrame = next.frame;
    // The device's line changes at most four times a second (text redrawn with every pose is the
    // page redrawn as often).
    const now = performance.now(), line = device.textContent.startsWith("Device: frame");
    if (members.hasPublisher && (!line || now - deviceLineAt >= 250)) {
      deviceLineAt = now;
      device.textContent = "Device: frame " + next.frame + " at " + next.position.map((v) => v.toFixed(2)).join(", ") + " m";
    }
    // With video, the camera view is drawn with each shown frame's own pose, and the scene with it:
    // a pose over the socket only marks the scene stale. Without frames for 200 ms, both are drawn
    // at the next animation frame.
    sceneStale = true;
    if (now - lastShown > 200 && !drawPending) {
      drawPending = true;
      requestAnimationFrame(() => { drawPending = false; drawStaleScene(); if (!camera.video) camera.draw(); });
    }
  };
  // Owners make the links devices share their view with; the page waits for the specs they may open.
  const specs = project.role === "owner" ? (await api("GET", projectPath(slug, "specs"))).specs.map((spec) => spec.name) : null;
  const ownCamera = cameraButton(slug, room);
  const connection = joinRoom(slug, room, onMessage, (text) => { status.textContent = "Room " + room + ": " + text; }, onPose);
  onLeave(() => { video.close(); ownCamera.close(); connection.close(); });
  bubbles.load().catch((error) => say("The project's bubbles could not be read: " + error.message, "error"));

  show("Room " + room, projectNav(project, "rooms"), h("h1", {}, "Room " + room), status, device,
    h("div", { class: "room" },
      h("section", { "aria-label": "Camera view" }, h("h2", {}, "Camera view"), videoStatus, camera.canvas,
        h("div", { class: "row" }, freeze, h("label", {}, "Place a click ", target), depth.label), label.label, ownCamera.button),
      h("section", { "aria-label": "Scene" }, h("h2", {}, "Scene"), scene.canvas)),
    h("section", { class: "card" }, h("h2", {}, "Annotations"), list),
    specs ? roomLinksCard(project, room, specs) : null);
  refresh();
}
