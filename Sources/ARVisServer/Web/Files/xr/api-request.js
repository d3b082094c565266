// The server's API as the AR view calls it: the member's bearer token, JSON both ways, and what
// the API's error shape says went wrong.

/// `method` on `path` with `token` (or none) and a JSON `body` (or none): {response, answer (the
/// JSON answer, or {} for none)}. A request the network refuses rejects, as fetch does.
export async function apiRequest(method, path, { token = null, body } = {}) {
  const headers = { ...(token ? { Authorization: "Bearer " + token } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { response, answer: await response.json().catch(() => ({})) };
}

/// The API's message in an error answer, else `fallback`.
export const errorMessage = (answer, fallback) => (answer && answer.error && answer.error.message) || fallback;
