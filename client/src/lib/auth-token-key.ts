/**
 * Names the app shares with the signed-in preload script (scripts/build/signed-in-preload.ts), which runs before the
 * app's code has arrived. A module of its own, importing nothing, so that the build reads the same constants.
 */

/** Where the session token lives in local storage. */
export const AUTH_TOKEN_KEY = "quorum.boardSessionToken";

/**
 * The window property under which the preload script leaves its request for the current user
 * (`{ token, response }`), sent with the token it found; the app takes it once instead of asking again, and
 * leaves `false` there, so that a preload script running after the app sends nothing.
 */
export const EARLY_CURRENT_USER = "__quorumCurrentUser";

/**
 * The window property under which the preload script leaves its requests for the first reads of the page at the
 * address (`{ token, responses }`: a promise of the responses by address, once the current user's active company
 * is known), sent with the token it found; the app takes them once (app/page-data.ts) and leaves `false` there.
 */
export const EARLY_READS = "__quorumEarlyReads";
