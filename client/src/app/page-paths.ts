/**
 * How an address is matched against a page's path (`/meetings/:id`), for what starts before the page is rendered: its
 * chunk's download and its first reads, in the app (app/page-data.ts, app/route-table.ts) and in the build's preload
 * script, which writes this pattern's source into itself. A module importing nothing, so that the build reads it too.
 * Every parameter of a signed-in page is an id, as the pages themselves read it (1 to 9 digits): any other
 * address is no page's worth preparing.
 */
export function pagePathPattern(path: string): RegExp {
  if (!/^\/[\w/:-]*$/.test(path)) throw new Error(`not a page's path: ${path}`);
  return new RegExp(`^${path.replace(/:(\w+)/g, "(?<$1>\\d{1,9})")}$`);
}

/** The parameters of `address` if it is an address of the page at `path` (`{ id: 12 }` for /meetings/12), else null. */
export function pathParams(path: string, address: string): Record<string, number> | null {
  const match = pagePathPattern(path).exec(address);
  if (!match) return null;
  return Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, Number(value)]));
}
