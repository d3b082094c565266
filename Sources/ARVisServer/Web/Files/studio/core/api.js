// The API client (openapi.yaml): JSON in and out, the session's bearer token, errors as APIError.

import { session } from "./session.js";
import { say } from "./toast.js";

export { path, projectPath, withQuery } from "./paths.js";

/// An error the API answered: its status, code and message (and diagnostics for a spec).
export class APIError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || "the server answered " + status);
    this.status = status;
    this.code = error.code || "";
    this.details = error.details;
  }
}

/// Calls the API: `body` is sent as JSON unless it is a string or Blob (then `type` names it).
/// Options: `headers`, `type`, `raw` (the Response itself), `withResponse` ({json, text, response}),
/// `keepSession` (a 401 does not sign out).
export async function api(method, path, options) {
  options = options || {};
  const headers = Object.assign({}, options.headers || {});
  if (session.token) headers.Authorization = "Bearer " + session.token;
  let body = options.body;
  if (body !== undefined && typeof body !== "string" && !(body instanceof Blob)) {
    body = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  } else if (options.type) headers["Content-Type"] = options.type;
  let response;
  try { response = await fetch(path, { method, headers, body, cache: "no-store" }); } catch (error) {
    throw new APIError(0, { error: { message: "the server cannot be reached: " + error.message } });
  }
  if (response.status === 401 && session.token && !options.keepSession) {
    session.end();
    location.hash = "#/signin";
  }
  if (options.raw) return response;
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (error) { json = null; }
  if (!response.ok) throw new APIError(response.status, json);
  return options.withResponse ? { json, text, response } : json;
}

/// Runs `work`, showing its error; returns its value (`true` for an answer with no body, such as
/// a `204`), or undefined when it failed.
export async function attempt(work, what) {
  try {
    const value = await work();
    return value === null || value === undefined ? true : value;
  } catch (error) {
    say((what ? what + ": " : "") + error.message, "error");
    return undefined;
  }
}
