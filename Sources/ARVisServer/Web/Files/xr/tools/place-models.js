// Gallery models the spec places (on this server only), drawn with the orbit viewer's renderer and
// kept in step with each version: a moved placement moves (its pose is read from the current scene
// every frame), a new one loads, one removed or given another model goes.

import { createRenderer } from "../../viewer/renderer.js";
import { parseGLB } from "../../viewer/glb.js";

/// Brings `models` (placement id → {asset, renderer}) in step with `view`'s scene.
export async function syncModels(ar, view, models) {
  const wanted = new Map();
  for (const node of view.state.scene.nodes.values()) if (node.kind === "placement" && node.asset) wanted.set(node.id, node.asset);
  for (const [id, model] of models) {
    if (wanted.get(id) !== model.asset) { if (model.renderer) model.renderer.dispose(); models.delete(id); }
  }
  const loading = [];
  for (const [id, asset] of wanted) if (!models.has(id)) loading.push(loadModel(ar, models, id, asset));
  await Promise.all(loading);
  ar.log.models = [...models].filter(([, model]) => model.renderer).map(([id]) => id).sort();
}

/// Loads placement `id`'s model into `models`, unless it is gone or changed when it arrives.
async function loadModel(ar, models, id, asset) {
  const model = { asset, renderer: null };
  models.set(id, model);
  const url = new URL(asset, location.href);
  if (url.origin !== location.origin || !url.pathname.includes("/assets/")) { ar.say(`${id}: its model is not in this server's gallery, so it is not drawn`); return; }
  try {
    const response = await fetch(url.pathname);
    if (!response.ok) throw new Error("HTTP " + response.status);
    const glb = parseGLB(await response.arrayBuffer());
    if (ar.ended || models.get(id) !== model) return;
    const renderer = createRenderer(ar.gl);
    await renderer.upload(glb);
    if (ar.ended || models.get(id) !== model) { renderer.dispose(); return; }
    model.renderer = renderer;
  } catch (error) { ar.say(`${id}: its model did not load (${error.message})`); }
}
