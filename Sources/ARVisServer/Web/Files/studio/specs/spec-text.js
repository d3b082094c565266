// A spec's text as the editor handles it: the example a new spec starts from, and whether it is
// YAML or JSON. Pure.

/// The text of a new spec: an image target with one text widget.
export const starter = JSON.stringify({
  imageTrackingConfigurations: [{
    imageURL: "https://example.org/targets/poster.jpg",
    physicalWidth: 0.3,
    relationships: [{ widgetConfiguration: { component: { text: { content: "**Hello from ARVis**" } }, relativeAnchorPoint: "top", relativePosition: [0, 0, 0] } }],
  }],
}, null, 2) + "\n";

/// Whether `text` is YAML: anything that does not open with { or [ (after blanks).
export const isYAML = (text) => !/^\s*[{[]/.test(text);

/// The media type `text` is sent as.
export const mediaTypeOf = (text) => isYAML(text) ? "application/yaml" : "application/json";
