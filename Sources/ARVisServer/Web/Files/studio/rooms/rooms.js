// A project's rooms, the remote expert's side: a device's session live — its camera moving in the
// 3D scene, its view where a click places an annotation (the server casts the ray through that
// frame), the room's annotations listed and deletable, and (owners) the links devices join with.

import { api, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { onLeave, projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { say } from "../core/toast.js";
import { CameraView } from "./camera-view.js";
import { joinRoom } from "./connection.js";
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
  const camera = new CameraView((tap) => annotate(tap));
  const status = h("p", { id: "room-status", class: "muted", role: "status", "aria-live": "polite" }, "Connecting…");
  const device = h("p", { id: "device-status", class: "muted" }, "Waiting for a device to publish its pose…");
  const label = field("Label of the next annotation", { maxlength: 2000, name: "annotation-text", value: "" });
  const list = h("ul", { class: "list", id: "annotations", "aria-label": "Annotations" });
  let frames = 0, pending = 0, drawPending = false;
  window.studioRoom = { frames: 0, annotations: 0, device: "none" };

  const remove = editable ? (annotation) => connection.send({ type: "deleteAnnotation", id: annotation.id, clientId: "delete-" + annotation.id }) : null;
  const refresh = () => {
    scene.annotations = camera.annotations = [...annotations.values()];
    list.replaceChildren(...annotationItems(scene.annotations, remove));
    window.studioRoom.annotations = annotations.size;
    scene.draw(); camera.draw();
  };

  function annotate(tap) {
    const pose = camera.pose;
    if (!pose) { say("No device has published a pose in this room yet.", "error"); return; }
    if (!editable) { say("Annotating needs the editor role.", "error"); return; }
    const message = { type: "annotate", tap, frame: pose.frame, clientId: "studio-" + Date.now() + "-" + (++pending) };
    const text = label.input.value.trim();
    if (text) message.text = text;
    if (connection.send(message)) say("Annotation sent.");
  }

  // Who publishes in the room: its pose stays on screen when it leaves, marked disconnected.
  const publishers = new Set();
  let lastFrame = null;
  const showDevice = () => {
    const connected = publishers.size > 0;
    window.studioRoom.device = connected ? "connected" : lastFrame === null ? "none" : "disconnected";
    device.classList.toggle("error", !connected && lastFrame !== null);
    if (!connected) device.textContent = lastFrame === null ? "Waiting for a device to publish its pose…" : "Device disconnected: showing its last frame (" + lastFrame + "). It resumes here when it comes back.";
    else if (lastFrame === null) device.textContent = "Device connected: waiting for its pose…";
  };
  const onPresence = (message) => {
    if (message.type === "welcome") { publishers.clear(); (message.members || []).forEach((member) => { if (member.role === "publisher") publishers.add(member.id); }); }
    else if (message.type === "memberJoined" && message.member.role === "publisher") publishers.add(message.member.id);
    else if (message.type === "memberLeft") publishers.delete(message.id);
    else return;
    showDevice();
  };

  const onMessage = (message) => {
    onPresence(message);
    if (message.type === "welcome" && message.annotations) { annotations.clear(); message.annotations.forEach((annotation) => annotations.set(annotation.id, annotation)); refresh(); }
    else if (message.type === "annotation") { annotations.set(message.annotation.id, message.annotation); refresh(); }
    else if (message.type === "annotationDeleted") { annotations.delete(message.id); refresh(); }
    else if (message.type === "refused") say("Refused: " + message.message, "error");
  };
  const onPose = (next) => {
    camera.pose = next; frames++;
    window.studioRoom.frames = frames;
    scene.pose = next;
    scene.path.push(next.position.slice()); if (scene.path.length > 600) scene.path.shift();
    lastFrame = next.frame;
    if (publishers.size) device.textContent = "Device: frame " + next.frame + " at " + next.position.map((v) => v.toFixed(2)).join(", ") + " m";
    if (!drawPending) { drawPending = true; requestAnimationFrame(() => { drawPending = false; scene.draw(); camera.draw(); }); }
  };
  // Owners make the links devices share their view with; the page waits for the specs they may open.
  const specs = project.role === "owner" ? (await api("GET", projectPath(slug, "specs"))).specs.map((spec) => spec.name) : null;
  const connection = joinRoom(slug, room, onMessage, (text) => { status.textContent = "Room " + room + ": " + text; }, onPose);
  onLeave(() => connection.close());

  show("Room " + room, projectNav(project, "rooms"), h("h1", {}, "Room " + room), status, device,
    h("div", { class: "room" },
      h("section", { "aria-label": "Camera view" }, h("h2", {}, "Camera view"), camera.canvas, label.label),
      h("section", { "aria-label": "Scene" }, h("h2", {}, "Scene"), scene.canvas)),
    h("section", { class: "card" }, h("h2", {}, "Annotations"), list),
    specs ? roomLinksCard(project, room, specs) : null);
  refresh();
}
