// The header's account links: sign in and sign up, or the account and a sign-out button.

import { h } from "./dom.js";
import { session } from "./session.js";

/// Fills #account for the session as it is now; `signOut` runs when its button is pressed.
export function renderAccountBar(signOut) {
  const nav = document.getElementById("account");
  if (!session.token || !session.me) { nav.replaceChildren(h("a", { href: "#/signin" }, "Sign in"), h("a", { href: "#/signup" }, "Sign up")); return; }
  nav.replaceChildren(h("a", { href: "#/account" }, session.me.username),
    h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"));
}
