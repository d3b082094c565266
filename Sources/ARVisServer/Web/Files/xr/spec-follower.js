// The spec's event stream (Server-Sent Events from /live/PROJECT/NAME): every saved version with
// the widgets it changed, resumed from the version shown. Shared by the phone page and its AR view.

/// Follows `stream` from version `shown`, calling `on.status(text)`, `on.version(message)` for a
/// saved version other than the one held, `on.rows(message)` for rows appended to a dataset the
/// charts follow, and `on.deleted()`; returns {close(), hold(version)}.
/// The browser reconnects by itself (resuming with the last event id); an end the server means
/// (access revoked) stops it.
export function followSpec(stream, shown, on) {
  let held = String(shown);
  const source = new EventSource(stream + "?version=" + encodeURIComponent(held));
  source.onopen = () => on.status("live");
  source.onerror = () => on.status("reconnecting…");
  source.addEventListener("close", (event) => {
    let reason = {};
    try { reason = JSON.parse(event.data); } catch (error) { /* no reason given */ }
    if (reason.code !== 4003) return;
    source.close();
    on.status("no longer shared: " + (reason.reason || "access ended"));
  });
  source.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    if (message.type === "spec" && String(message.version) !== held) {
      held = String(message.version);
      on.version(message);
    } else if (message.type === "rows") {
      on.rows(message);
    } else if (message.type === "deleted") {
      source.close();
      on.deleted();
    }
  };
  return { close: () => source.close(), hold: (version) => { held = String(version); } };
}
