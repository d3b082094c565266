// API paths and links, built from their parts. Pure: no DOM, no session.

/// "/" and the parts, each percent-encoded: path("api", "v1", "a b") is "/api/v1/a%20b".
export const path = (...parts) => "/" + parts.map(encodeURIComponent).join("/");

/// The API path of project `slug`, and of what is under it.
export const projectPath = (slug, ...rest) => path("api", "v1", "projects", slug, ...rest);

/// `url` with the query parameter `name` set to `value` (encoded), after any query it has: an asset
/// link carries its read grant, and a thumbnail's size follows it.
export const withQuery = (url, name, value) =>
  url + (url.includes("?") ? "&" : "?") + encodeURIComponent(name) + "=" + encodeURIComponent(String(value));
