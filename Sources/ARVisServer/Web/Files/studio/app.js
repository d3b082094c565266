// ARVis Studio, the browser app served at / (this module, /studio/app.js, is the page's one
// script). No library and nothing from outside the server: the API (openapi.yaml), the previews
// and the live streams. This module names each page and starts the router; the pages are in the
// folders beside it, the pieces they share in core/.

import { accountPage, signInPage, signUpPage } from "./account/accounts.js";
import { startRouter } from "./core/router.js";
import { galleryPage } from "./gallery/gallery.js";
import { plantingPage } from "./planting/planting.js";
import { dataPage } from "./projects/data.js";
import { membersPage } from "./projects/members.js";
import { projectsPage } from "./projects/projects.js";
import { settingsPage } from "./projects/settings.js";
import { roomsPage } from "./rooms/rooms.js";
import { specsPage } from "./specs/specs.js";

startRouter({
  signIn: signInPage,
  signUp: signUpPage,
  account: accountPage,
  projects: projectsPage,
  /// A project's tabs, at #/p/SLUG/TAB/…: each is called with the project and the rest of the path.
  project: {
    specs: specsPage,
    planting: plantingPage,
    gallery: galleryPage,
    rooms: roomsPage,
    data: dataPage,
    members: membersPage,
    settings: settingsPage,
  },
});
