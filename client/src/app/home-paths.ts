/**
 * The addresses of the page a signed-in visitor lands on (the dashboard; the route table maps both to it). A
 * module importing nothing, so that the build's preload script (preloaded-pages.ts) and the app's table of first
 * reads (first-reads.ts) read the same list.
 */
export const HOME_PATHS: readonly string[] = ["/", "/dashboard"];
