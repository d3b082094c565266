// The server's API as the AR view calls it: the member's bearer token, JSON both ways, what the
// API's error shape says went wrong, and the tools' removals (said on the status line, the ones that
// cannot be undone pressed twice).

/// `method` on `path` with `token` (or none) and a JSON `body` (or none): {response, answer (the
/// JSON answer, or {} for none)}. A request the network refuses rejects, as fetch does.
export async function apiRequest(method, path, { token = null, body } = {}) {
  const headers = { ...(token ? { Authorization: "Bearer " + token } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { response, answer: await response.json().catch(() => ({})) };
}

/// The API's message in an error answer, else `fallback`.
export const errorMessage = (answer, fallback) => (answer && answer.error && answer.error.message) || fallback;

/// DELETE `path` with `token`; says `done(answer)` through `say`, or why nothing was removed.
/// Returns whether it was removed.
export async function removeAndSay(path, token, say, done) {
  try {
    const { response, answer } = await apiRequest("DELETE", path, { token });
    if (!response.ok) { say("Not removed: " + errorMessage(answer, "HTTP " + response.status)); return false; }
    say(done(answer));
    return true;
  } catch (error) {
    say("Not removed: the server could not be reached.");
    return false;
  }
}

/// A button's guard for what cannot be undone: a dialog cannot open over an immersive session, so
/// the first press says `warning` and only a second one within 4 s goes ahead. Returns a function
/// that answers, at each press, whether to go ahead.
export function secondPress(say, warning) {
  let until = 0;
  return () => {
    if (performance.now() > until) { until = performance.now() + 4000; say(warning); return false; }
    until = 0;
    return true;
  };
}
