// How this page may join the project's rooms: with a room link from the page's address (kept in
// the tab once read, so the address loses it: it is neither in the history nor shown on screen),
// or as a signed-in member (the Studio's token on this origin). A link is kept for its project and
// room alone, so another project's page in the same tab never uses it.

const body = document.body;
const room = new URLSearchParams(location.search).get("room") || "main";
const linkKey = "arvis.roomLink:" + body.dataset.project + "/" + room;
{
  const link = new URLSearchParams(location.hash.slice(1)).get("link");
  if (link) {
    sessionStorage.setItem(linkKey, link);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

/// {link, token, room}: the room link (or null), the member's bearer token (or null), the room.
export const roomAccess = () => ({ link: sessionStorage.getItem(linkKey), token: localStorage.getItem("arvis.token"), room });
