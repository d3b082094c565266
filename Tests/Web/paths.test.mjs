// API paths and links (studio/core/paths.js) and roles (studio/core/roles.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { path, projectPath, withQuery } from "../../Sources/ARVisServer/Web/Files/studio/core/paths.js";
import { canEdit } from "../../Sources/ARVisServer/Web/Files/studio/core/roles.js";

test("paths escape each part", () => {
  assert.equal(path("api", "v1", "projects"), "/api/v1/projects");
  assert.equal(path(), "/");
  assert.equal(projectPath("museum", "specs", "a b/c?d#e"), "/api/v1/projects/museum/specs/a%20b%2Fc%3Fd%23e");
  assert.equal(projectPath("café", "assets"), "/api/v1/projects/caf%C3%A9/assets");
  assert.equal(projectPath("museum"), "/api/v1/projects/museum");
});

test("a query parameter follows any query the link has, encoded", () => {
  assert.equal(withQuery("/a/thumb.png", "size", 360), "/a/thumb.png?size=360");
  assert.equal(withQuery("/a/thumb.png?grant=1.ab", "size", 360), "/a/thumb.png?grant=1.ab&size=360");
  assert.equal(withQuery("/a", "n a", "t+k/=="), "/a?n%20a=t%2Bk%2F%3D%3D");
});

test("owners and editors edit; viewers and visitors do not", () => {
  assert.equal(canEdit({ role: "owner" }), true);
  assert.equal(canEdit({ role: "editor" }), true);
  assert.equal(canEdit({ role: "viewer" }), false);
  assert.equal(canEdit({}), false);
});
