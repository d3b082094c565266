// What saving a spec sends and shows: the preconditions of the PUT, the save status line, the
// summary of the diagnostics. Pure.

/// The precondition headers of a save: over the ETag `over` the author chose to replace, else over
/// the version the editor holds (`etag`), else only if no spec has that name yet.
export const preconditions = (over, etag) => over ? { "If-Match": over } : etag ? { "If-Match": etag } : { "If-None-Match": "*" };

/// The status line and the save button's label for stored version `version` (0: none) and text
/// that differs from it (`dirty`) or not.
export const saveStatus = (version, dirty) => ({
  text: (version ? "Version " + version : "Not saved yet") + (dirty ? " · unsaved changes" : " · saved"),
  button: dirty ? "Save" : "Saved",
});

const count = (number, noun) => number + " " + noun + (number === 1 ? "" : "s");

/// The one-line summary of the server's diagnostics, and how many are errors.
export function diagnosticsSummary(diagnostics) {
  const errors = diagnostics.filter((item) => item.severity === "error").length, warnings = diagnostics.length - errors;
  const text = errors ? count(errors, "error") + ", " + count(warnings, "warning") : diagnostics.length ? "No errors; " + count(diagnostics.length, "warning") : "No problems.";
  return { text, errors };
}
