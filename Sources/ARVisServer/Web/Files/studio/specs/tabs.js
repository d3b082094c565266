// A tab list (WAI-ARIA tabs): one panel shown at a time, the arrow keys moving between tabs.

import { h } from "../core/dom.js";

/// Tabs over `items` ([{id, label, panel}]), labelled `label`; the first is selected, and
/// `onSelect(id)` runs whenever one is. Returns {element (the tab list), panels}.
export function tabList(items, label, onSelect) {
  const element = h("div", { role: "tablist", class: "tabs small", "aria-label": label });
  const select = (chosen) => {
    for (const item of items) {
      item.button.setAttribute("aria-selected", String(item === chosen));
      item.button.tabIndex = item === chosen ? 0 : -1;
      item.panel.hidden = item !== chosen;
    }
    onSelect(chosen.id);
  };
  items.forEach((item, index) => {
    item.panel.id = item.panel.id || "preview-" + item.id;
    item.button = h("button", { type: "button", role: "tab", id: "tab-" + item.id, "aria-controls": item.panel.id, onclick: () => select(item),
      onkeydown: (event) => {
        if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
        const next = items[(index + (event.key === "ArrowRight" ? 1 : items.length - 1)) % items.length];
        select(next); next.button.focus();
      } }, item.label);
    item.panel.setAttribute("role", "tabpanel");
    item.panel.setAttribute("aria-labelledby", "tab-" + item.id);
    element.append(item.button);
  });
  select(items[0]);
  return { element, panels: items.map((item) => item.panel) };
}
