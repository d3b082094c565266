// API paths and links, built from their parts. Pure: no DOM, no session.

/// "/" and the parts, each percent-encoded: path("api", "v1", "a b") is "/api/v1/a%20b".
export const path = (...parts) => "/" + parts.map(encodeURIComponent).join("/");

/// The API path of project `slug`, and of what is under it.
export const projectPath = (slug, ...rest) => path("api", "v1", "projects", slug, ...rest);

/// `url` carrying `token` as `access_token` (for links a browser follows: images, frames), or `url`
/// unchanged without a token.
export const withAccessToken = (url, token) =>
  token ? url + (url.includes("?") ? "&" : "?") + "access_token=" + encodeURIComponent(token) : url;
