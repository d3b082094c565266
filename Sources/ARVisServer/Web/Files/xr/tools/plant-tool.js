// The Plant tool (ReforestAR on the phone): a species from the catalog, trees per tap (1–10) and
// ReforestAR's scale slider; a tap on level ground sends the point, in the project's frame, to the
// server, which makes the tap group, checks every spacing and stores it (POST …/trees/groups). The
// trees drawn are the server's — the answer's and the room's broadcasts — never placed here. A tap
// refused for spacing shows the trees in the way in red. Undo takes back this session's last group;
// editors remove this session's trees, owners every tree.

import { transformPoint } from "../../viewer/matrix.js";
import { apiRequest, errorMessage, removeAndSay, secondPress } from "../api-request.js";
import { positionOf } from "../placement.js";
import { isLevel } from "../session-core.js";

/// A species' name in the reader's language, as `arvis species` gives them.
const localName = (species) => (navigator.language || "").toLowerCase().startsWith("pt") ? species.portugueseName : species.englishName;

/// The Plant tool of session core `ar`, planting for `planting` ({token, role, species}) in the
/// project's `frame`, drawn by tree `layer`, live from the project's `room`.
export function plantTool(ar, { planting, frame, layer, room }) {
  const { $, say, log, project } = ar, panel = $("ar-plant-panel"), button = $("ar-plant"), species = $("ar-plant-species");
  const api = `/api/v1/projects/${encodeURIComponent(project)}/trees`;
  const session = crypto.randomUUID(), groups = [];
  const owner = planting.role === "owner";
  let requested = null;
  log.plant = { session, taps: [], refusals: [], enabled: ["editor", "owner"].includes(planting.role) };
  button.hidden = !log.plant.enabled;
  $("ar-plant-clear-all").hidden = !owner;
  fillSpecies(species, planting.species);
  for (const id of ["ar-plant-count", "ar-plant-scale"]) $(id).oninput = () => { $(id + "-value").textContent = $(id).value; };

  function refuse(reason, text) {
    log.plant.refusals.push({ reason, text, at: ar.now() });
    say(text);
  }

  function select() {
    if (!frame.matrix) { refuse("unaligned", `Not planted: find the project's frame first (${frame.ways()}), so the trees land where others see them.`); return; }
    requested = { tappedAt: ar.now() };
  }

  /// A tap is answered in the next frame, where the reticle's hit is.
  function onFrame() {
    if (!requested) return;
    const tap = requested;
    requested = null;
    if (!isLevel(ar.hit)) { refuse("surface", "Not planted: no level ground under the reticle. Aim at the ground until the reticle shows, then tap."); return; }
    // A tap is never queued: while the room that shows the trees is down, it is refused. (A member
    // the room refuses — a viewer — is answered by the server.)
    if (!["live", "refused"].includes(room.state())) { refuse("offline", "Not planted: the connection to the server is down (connecting…). Nothing was saved; tap again once it is back."); return; }
    const [x, y, z] = transformPoint(frame.inverse, positionOf(ar.hit.matrix));
    const body = { species: species.dataset.value, position: { x, y, z }, count: Number($("ar-plant-count").value),
      scale: Number(Number($("ar-plant-scale").value).toFixed(2)), session, clientId: crypto.randomUUID() };
    const record = { clientId: body.clientId, tappedAt: tap.tappedAt, sent: body, answeredAt: null, drawnAt: null, group: null, trees: [] };
    log.plant.taps.push(record);
    plant(body, record);
  }

  async function plant(body, record) {
    let response, answer;
    try {
      ({ response, answer } = await apiRequest("POST", `${api}/groups`, { token: planting.token, body }));
    } catch (error) {
      record.status = "offline";
      refuse("offline", "Not planted: the server could not be reached. Nothing was saved; tap again once the connection is back.");
      return;
    }
    record.answeredAt = ar.now();
    record.status = response.status;
    if (ar.ended) return;
    if (!response.ok) {
      const error = answer.error || {}, blocking = ((error.details && error.details.trees) || []).map((tree) => tree.id);
      record.blocking = blocking;
      if (blocking.length) layer.showInRed(blocking);
      refuse(error.code || String(response.status), "Not planted: " + errorMessage(answer, "HTTP " + response.status) + (blocking.length ? ` (${blocking.length} in the way, in red)` : ""));
      return;
    }
    if (!Array.isArray(answer.trees)) { refuse("answer", "Not planted: the server's answer was not a tree group."); return; }
    record.group = answer.id;
    record.trees = answer.trees.map((tree) => tree.id);
    layer.upsert(answer.trees);
    if (response.status === 201) groups.push({ id: answer.id, trees: record.trees });
    say(`Planted ${answer.trees.length} ${answer.trees.length === 1 ? "tree" : "trees"} of ${body.species}.`);
  }

  /// After a frame is drawn: when each answered tap's trees were first on screen.
  function drawn() {
    for (const record of log.plant.taps) {
      if (record.drawnAt || !record.trees.length) continue;
      if (record.trees.every((id) => layer.isDrawn(id))) record.drawnAt = ar.now();
    }
  }

  const remove = (path, done) => removeAndSay(path, planting.token, say, done);

  $("ar-plant-undo").onclick = async () => {
    const group = groups[groups.length - 1];
    if (!group) { say("Nothing to undo: no group of this session is left to take back."); return; }
    if (await remove(`${api}/groups/${encodeURIComponent(group.id)}`, () => `Took back the last group (${group.trees.length} trees).`)) {
      groups.pop();
      group.trees.forEach((id) => layer.remove(id));
    }
  };
  $("ar-plant-clear").onclick = () => remove(`${api}/sessions/${session}`, (answer) => { groups.length = 0; return `Removed the ${answer.removed} trees this session planted.`; });
  const confirmed = secondPress(say, "Press “Remove all trees” again within 4 s to remove every tree of the project, planted by anyone.");
  $("ar-plant-clear-all").onclick = () => {
    if (confirmed()) remove(api, (answer) => { groups.length = 0; return `Removed all ${answer.removed} trees of the project.`; });
  };

  return {
    name: "plant", button, select, frame: onFrame, drawn,
    activate() { panel.hidden = false; say(frame.matrix ? "Aim at the ground and tap to plant." : `Find the project's frame first: ${frame.ways()}.`); },
    deactivate() { panel.hidden = true; requested = null; },
    reticle: () => "level",
    dispose() { panel.hidden = true; },
  };
}

/// The catalog's species as a list of buttons (a native <select> opens outside WebXR's DOM overlay
/// on phones): the local name, the Latin name the server stores as the list's `data-value`.
function fillSpecies(list, species) {
  const choose = (button) => {
    for (const other of list.children) other.setAttribute("aria-selected", String(other === button));
    list.dataset.value = button.dataset.value;
  };
  list.replaceChildren(...species.map((entry) => {
    const button = document.createElement("button");
    Object.assign(button, { type: "button", title: entry.latinName, textContent: localName(entry) });
    button.setAttribute("role", "option");
    button.dataset.value = entry.latinName;
    button.onclick = () => choose(button);
    return button;
  }));
  if (list.firstChild) choose(list.firstChild);
}
