// The preview's phone panel: the QR code and link that open the saved spec on a phone (its hub
// page, which follows every save), or why there is none.

import { h } from "../core/dom.js";
import { canEdit } from "../core/roles.js";

/// {element, show(version)}: `show` after every change of the stored version (0: none).
export function phonePanel(project, name) {
  const element = h("div", { class: "phone", id: "preview-phone" });
  const hub = "/s/" + encodeURIComponent(project.slug) + "/" + encodeURIComponent(name);
  function show(version) {
    if (!version) { element.replaceChildren(h("p", { class: "muted" }, "Save the spec to open it on a phone.")); return; }
    if (project.visibility === "private") {
      element.replaceChildren(h("p", {}, "Phones open the specs of unlisted and public projects without an account; this project is private. ",
        canEdit(project) ? h("a", { href: "#/p/" + project.slug + "/settings" }, "Change its visibility") : null));
      return;
    }
    const page = location.origin + hub;
    element.replaceChildren(h("img", { src: hub + "/qr.svg?v=" + version, alt: "QR code opening " + name + " in iARVis", class: "qr", width: 200, height: 200 }),
      h("p", {}, h("a", { href: page, target: "_blank", rel: "noopener", id: "phone-link" }, page)),
      h("p", { class: "muted" }, "The phone page follows every save live."));
  }
  return { element, show };
}
