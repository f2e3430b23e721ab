/**
 * Cookie holding "the server needs a restart" for this browser (spec 1 §3 system state serverNeedsRestart):
 * set by the settings API, read by every page's shell, which must not load the settings API to know its name.
 */
export const RESTART_COOKIE = "deck_restart";
