// The account pages: sign in, sign up, and the account (change the password, delete the account).

import { api, attempt } from "../core/api.js";
import { field, h } from "../core/dom.js";
import { show } from "../core/page.js";
import { go, route } from "../core/router.js";
import { session } from "../core/session.js";
import { say } from "../core/toast.js";

function credentialsForm(title, action, submit) {
  const username = field("User name", { name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 40 });
  const password = field("Password", { name: "password", type: "password", required: true, minlength: 10, maxlength: 200,
    autocomplete: action === "signup" ? "new-password" : "current-password" });
  const error = h("p", { class: "error", role: "alert" });
  return h("form", { class: "card narrow", onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    try { await submit(username.input.value.trim(), password.input.value); } catch (failure) { error.textContent = failure.message; }
  } }, h("h1", {}, title), username.label, password.label, error, h("button", { type: "submit", class: "primary" }, title));
}

async function signIn(username, password) {
  const created = await api("POST", "/api/v1/sessions", { body: { username, password }, keepSession: true });
  session.token = created.token;
  session.me = null;
  location.hash = "#/";
  route();
}

export const signInPage = () => show("Sign in", credentialsForm("Sign in", "signin", signIn),
  h("p", { class: "center" }, "No account yet? ", h("a", { href: "#/signup" }, "Sign up")));

export const signUpPage = () => show("Sign up", credentialsForm("Sign up", "signup", async (username, password) => {
  await api("POST", "/api/v1/accounts", { body: { username, password }, keepSession: true });
  await signIn(username, password);
}), h("p", { class: "center" }, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in")));

export function accountPage() {
  const current = field("Current password", { type: "password", autocomplete: "current-password", required: true });
  const next = field("New password (10 characters or more)", { type: "password", autocomplete: "new-password", required: true, minlength: 10 });
  const confirmation = field("Password, to confirm", { type: "password", autocomplete: "current-password", required: true });
  show("Account", h("h1", {}, session.me.username),
    h("form", { class: "card narrow", onsubmit: async (event) => {
      event.preventDefault();
      await attempt(async () => {
        await api("PUT", "/api/v1/accounts/current/password", { body: { currentPassword: current.input.value, newPassword: next.input.value } });
        say("Password changed; your other sessions are signed out.");
      }, "Not changed");
    } }, h("h2", {}, "Change password"), current.label, next.label, h("button", { type: "submit" }, "Change password")),
    h("form", { class: "card narrow danger", onsubmit: async (event) => {
      event.preventDefault();
      if (!confirm("Delete the account " + session.me.username + "? Projects only you own go to the trash.")) return;
      const deleted = await attempt(() => api("DELETE", "/api/v1/accounts/current", { body: { password: confirmation.input.value } }), "Not deleted");
      if (deleted === undefined) return;
      session.end();
      go("#/signin");
    } }, h("h2", {}, "Delete the account"), confirmation.label, h("button", { type: "submit" }, "Delete my account")));
}
