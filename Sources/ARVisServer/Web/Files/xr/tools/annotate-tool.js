// The Annotate tool: while the view is shared, a tap puts a note in the room where the tap points,
// on the frame the expert sees (the room's annotation protocol); the note comes back as an
// annotation and the Share tool draws it.

import { tapOnView } from "../view-intrinsics.js";

/// The Annotate tool of session core `ar`, over the Share tool `share`.
export function annotateTool(ar, share) {
  return {
    name: "annotate",
    button: ar.$("ar-annotate"),
    activate() { ar.say("Tap where the note goes"); },
    deactivate() { ar.say(""); },
    select(event) {
      if (!share.room) return;
      const tap = tapOnView(ar.rayDirection(event), ar.viewer, ar.projection);
      if (tap) share.room.annotate(tap, ar.frameId, null);
    },
    reticle: () => null,
  };
}
