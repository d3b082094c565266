// The conflict panel: someone saved since the editor's text was loaded, so both texts are shown
// with their diff, and the author keeps theirs or takes the other; nothing is lost.

import { diffView } from "../code/diff-view.js";
import { h } from "../core/dom.js";

/// {element, show(mine, theirs), hide()}: `keepMine(theirETag)` and `takeTheirs(theirs)` ({text,
/// etag, version}) are the author's choices.
export function conflictPanel({ keepMine, takeTheirs }) {
  const element = h("section", { class: "conflict card", id: "conflict", hidden: true, "aria-live": "assertive" });
  const hide = () => { element.hidden = true; };
  const textArea = (id, value) => h("textarea", { readOnly: true, class: "mono", rows: 12, value, id });

  function show(mine, theirs) {
    element.replaceChildren(
      h("h2", {}, "Someone else saved version " + theirs.version + " while you were editing"),
      h("p", {}, "Nothing was saved and nothing is lost: your text is below theirs. Keep yours (it becomes the next version), or take theirs (yours stays here to copy from)."),
      h("div", { class: "both" },
        h("label", { class: "field" }, h("span", {}, "Theirs (version " + theirs.version + ")"), textArea("conflict-theirs", theirs.text)),
        h("label", { class: "field" }, h("span", {}, "Yours"), textArea("conflict-mine", mine))),
      diffView(theirs.text, mine, "theirs → yours"),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", onclick: () => keepMine(theirs.etag) }, "Keep mine"),
        h("button", { type: "button", onclick: () => takeTheirs(theirs) }, "Take theirs"),
        h("button", { type: "button", onclick: hide }, "Close")));
    element.hidden = false;
    const heading = element.querySelector("h2");
    heading.tabIndex = -1;
    heading.focus();
  }

  return { element, show, hide };
}
