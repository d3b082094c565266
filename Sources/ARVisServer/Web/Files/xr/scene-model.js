// The hub's scene graph (scene.json) as the AR view needs it: which targets must be placed and
// how, and every node's world matrix once they are. Placement is never computed here: every
// pose is scene.json's, re-based on where its target was put in the room. Pure.

import { placedNode } from "./placement.js";

/// How a target is put in the room: "image" targets one by one (tracked, or a tap each); all
/// others ("world": world and geo anchors, objects) with the environment's one placement.
export const placementKind = (node) => node.kind === "target" && /^image\d+$/.test(node.id) ? "image" : "world";

/// A scene read from scene.json's `{nodes}`: {nodes: Map id → node, targets: [target nodes],
/// images: [image target ids], needsWorld (some node hangs from the world placement),
/// rootOf(id) → the id of the target a node hangs from (itself for a target, null for none)}.
export function readScene(document) {
  const nodes = new Map();
  for (const node of (document && Array.isArray(document.nodes) ? document.nodes : [])) {
    if (node && typeof node.id === "string" && Array.isArray(node.transform) && node.transform.length === 16) nodes.set(node.id, node);
  }
  const roots = new Map();
  const rootOf = (id) => {
    if (roots.has(id)) return roots.get(id);
    let node = nodes.get(id), steps = 0;
    while (node && node.kind !== "target" && node.parent && steps++ < 64) node = nodes.get(node.parent);
    const root = node && node.kind === "target" ? node.id : null;
    roots.set(id, root);
    return root;
  };
  const targets = [...nodes.values()].filter((node) => node.kind === "target");
  const images = targets.filter((node) => placementKind(node) === "image").map((node) => node.id);
  const needsWorld = [...nodes.values()].some((node) => {
    const root = rootOf(node.id);
    return root === null || placementKind(nodes.get(root)) === "world";
  });
  return { nodes, targets, images, needsWorld, rootOf };
}

/// The room pose of every target, given the environment's placement `world` (the scene origin's
/// pose, or null) and the image targets' quad frames `images` ({id → matrix}); a target not
/// placed yet has none.
export function targetPoses(scene, world, images) {
  const poses = {};
  for (const target of scene.targets) {
    if (placementKind(target) === "image") { if (images[target.id]) poses[target.id] = images[target.id]; }
    else if (world) poses[target.id] = placedNode(world, identityMatrix, target.transform);
  }
  return poses;
}

const identityMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/// The room matrix of node `id` (scene.json's pose re-based on its target's room pose), or null
/// while its target is not placed. Nodes without a target hang from the world placement.
export function nodeMatrix(scene, id, poses, world) {
  const node = scene.nodes.get(id);
  if (!node) return null;
  const root = scene.rootOf(id);
  if (root === null) return world ? placedNode(world, identityMatrix, node.transform) : null;
  const placed = poses[root];
  return placed ? placedNode(placed, scene.nodes.get(root).transform, node.transform) : null;
}

/// The quads the AR view draws: widgets and the environment's annotation markers (target
/// pictures are the real things in the room).
export const drawnQuads = (scene) => [...scene.nodes.values()].filter((node) => (node.kind === "widget" || node.kind === "annotation") && Array.isArray(node.size));

/// Whether widget `id` must be drawn again after a save that changed the widgets `changed` (a
/// Set): it changed, or it is a child a changed widget's link opens (one the closed scene
/// `closed` does not have: its content is in the link).
export function needsRedraw(id, changed, closed) {
  if (changed.has(id)) return true;
  if (closed.nodes.has(id)) return false;
  for (const parent of changed) if (id.startsWith(parent + "-")) return true;
  return false;
}
