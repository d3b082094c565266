// The toast: a short message at the bottom of the page (the page's #toast, announced to screen
// readers).

let timer = 0;

/// Shows `text` for a few seconds; `kind` "error" keeps it longer and colours it.
export function say(text, kind) {
  const toast = document.getElementById("toast");
  toast.textContent = text;
  toast.className = "show " + (kind || "");
  clearTimeout(timer);
  timer = setTimeout(() => { toast.className = ""; }, kind === "error" ? 8000 : 3500);
}
