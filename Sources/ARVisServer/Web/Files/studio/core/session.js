// The signed-in session: its bearer token (kept in localStorage across visits) and the account it
// belongs to (read from the API once per visit).

export const session = {
  get token() { return localStorage.getItem("arvis.token"); },
  set token(value) { if (value) localStorage.setItem("arvis.token", value); else localStorage.removeItem("arvis.token"); },
  /// The signed-in account (`{username, …}`), or null until it is read.
  me: null,
  /// Forgets the token and the account.
  end() {
    this.token = null;
    this.me = null;
  },
};
