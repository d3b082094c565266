// The spec hub's phone page follows its spec live: the page's stream (Server-Sent Events from
// /live/PROJECT/NAME, resumed from the version shown) reloads the page when a new version is saved,
// so a phone that opened a spec shows every save within a moment. The page's one script, a module.

/// Follows the stream the page's body names (data-live, data-version), saying how it goes in #live.
function follow() {
  const body = document.body;
  const stream = body.dataset.live;
  const shown = body.dataset.version;
  const status = document.getElementById("live");
  const say = (text) => { if (status) status.textContent = text; };
  if (!stream || !shown || !window.EventSource) return;
  const source = new EventSource(stream + "?version=" + encodeURIComponent(shown));
  source.onopen = () => say("live");
  source.onerror = () => say("reconnecting…");
  // The server closes the stream when it must: access revoked (4003), or asked to resume elsewhere.
  source.addEventListener("close", (event) => {
    let reason = {};
    try { reason = JSON.parse(event.data); } catch (error) { /* no reason given */ }
    if (reason.code !== 4003) return;
    source.close();
    say("no longer shared: " + (reason.reason || "access ended"));
  });
  source.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    if (message.type === "spec" && String(message.version) !== shown) {
      source.close();
      say("version " + message.version + " saved: reloading…");
      location.reload();
    } else if (message.type === "deleted") {
      source.close();
      say("this spec was deleted");
    }
  };
}

follow();
