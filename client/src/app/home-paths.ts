/**
 * The addresses of the page a signed-in visitor lands on (the dashboard; the route table maps both to it). A
 * module importing nothing, so that the build's preload script (vite.config.ts) and the first reads' head
 * start (page-data.ts) read the same list.
 */
export const HOME_PATHS: readonly string[] = ["/", "/dashboard"];
