// A room's links, the owner's side: make a link a device opens to share its view in the room (as
// its publisher, without an account), see the links that still work, and withdraw one.

import { api, attempt, projectPath } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { say } from "../core/toast.js";

/// The card that makes, lists and withdraws the links of `room` (owners only); `specs`: the
/// project's spec names a link may open the phone page of.
export function roomLinksCard(project, room, specs) {
  const base = projectPath(project.slug, "rooms", room, "links");
  const list = h("ul", { class: "list", id: "room-links", "aria-label": "Links for devices" });
  const made = h("div", { id: "room-link-made", "aria-live": "polite" });
  const minutes = field("Works for (minutes)", { type: "number", min: 1, max: 1440, value: "60", required: true, name: "link-minutes" });
  const spec = field("Opens", { tag: "select", name: "link-spec" });
  const isPrivate = project.visibility === "private";
  spec.input.append(h("option", { value: "" }, "the room only (a device app)"),
    ...(isPrivate ? [] : specs.map((name) => h("option", { value: name }, "the phone page of " + name))));
  window.studioRoom.links = 0;

  async function refresh() {
    const answer = await attempt(() => api("GET", base), "Links");
    if (!answer || answer === true) return;
    window.studioRoom.links = answer.links.length;
    list.replaceChildren(...(answer.links.length ? answer.links.map(item) : [h("li", { class: "muted" }, "No link works now.")]));
  }

  const item = (link) => h("li", { dataset: { id: link.id } },
    h("strong", {}, link.spec ? "Phone page of " + link.spec : "Room only"),
    " · until " + new Date(link.expiresAt).toLocaleString() + " · made by " + (link.createdBy || "a deleted account") + " ",
    h("button", { type: "button", onclick: () => withdraw(link) }, "Withdraw"));

  async function withdraw(link) {
    if (await attempt(() => api("DELETE", base + "/" + encodeURIComponent(link.id)), "Withdrawing the link")) {
      say("Withdrawn: a device sharing with it is disconnected.");
      made.replaceChildren();
      refresh();
    }
  }

  async function make(event) {
    event.preventDefault();
    const body = { minutes: Number(minutes.input.value) };
    if (spec.input.value) body.spec = spec.input.value;
    const link = await attempt(() => api("POST", base, { body }), "Making the link");
    if (!link || link === true) return;
    const url = new URL(link.url, location.origin).href;
    const shown = h("input", { type: "text", readonly: true, value: url, id: "room-link-url", "aria-label": "The link (shown once)" });
    made.replaceChildren(h("p", {}, "Open this on the device (it is shown once; the server keeps only a hash of it):"),
      h("div", { class: "row" }, shown,
        h("button", { type: "button", onclick: () => navigator.clipboard.writeText(url).then(() => say("Copied."), () => { shown.select(); say("Select and copy it.", "error"); }) }, "Copy")));
    refresh();
  }

  refresh();
  return h("section", { class: "card", "aria-label": "Links for devices" }, h("h2", {}, "Links for devices"),
    h("p", { class: "muted" }, "A link lets a device share its view in this room without an account until it expires: its poses, the surfaces it found and its notes, nothing else in the project." +
      (isPrivate ? " This project is private, so a link opens the room only: phones open spec pages of unlisted and public projects." : "")),
    h("form", { class: "row", onsubmit: make }, minutes.label, spec.label, h("button", { type: "submit", class: "primary" }, "Make a link")),
    made, list);
}
