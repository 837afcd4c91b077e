/**
 * Where the session token lives in local storage. A module of its own, importing nothing, so that the build
 * can read it too (the signed-in preload script checks this key before the app's code has arrived).
 */
export const AUTH_TOKEN_KEY = "quorum.boardSessionToken";
