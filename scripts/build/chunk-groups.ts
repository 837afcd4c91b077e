// Which chunk a module of the client goes to, beyond what the bundler decides on its own.
//
// Left alone, the bundler makes one chunk per set of importers: a signed-in first load of the dashboard then
// asked for about 25 files after the entry, most of them under 1 KB, and a phone's browser opens only six
// connections to one server over HTTP/1.1, so they queued in waves of six. Two groups keep that load to
// three waves of few files: everything the entry imports, and everything the signed-in shell and the home
// page need beyond it.

/** The part of the bundler's module graph the groups read. */
export interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

export interface FirstLoadRoots {
  /** The app's entry module (what index.html loads). */
  entry: string;
  /** The signed-in shell's module (sidebar, header, route table), loaded on every signed-in page. */
  shell: string;
  /** The page a signed-in visitor lands on. */
  home: string;
}

/** The module at `from` and every module it imports statically, transitively. */
function staticallyReachable(graph: ModuleGraph, from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** Every module imported with `import()` anywhere in the app: the pages and everything else loaded on demand. */
function loadedOnDemand(graph: ModuleGraph, entry: string): Set<string> {
  const seen = new Set<string>();
  const onDemand = new Set<string>();
  const queue = [entry];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    queue.push(...info.importedIds, ...info.dynamicallyImportedIds);
    for (const imported of info.dynamicallyImportedIds) onDemand.add(imported);
  }
  return onDemand;
}

/** The two groups' chunk names. */
export type FirstLoadChunk = "signed-in" | "shared-with-sign-in";

/**
 * The chunk of each module the groups place: "signed-in" for the shell with everything it imports and what the
 * home page shares with any other part loaded on demand (its panels' badges, rows and formatters), minus what
 * the entry already holds. What only the home page uses stays in the home page's own chunk, so other pages do
 * not download it. Of those, the modules that the parts a signed-out visitor may load also use (the toaster,
 * registration: Radix's layers, the card) go to "shared-with-sign-in" instead, so that a toast on the sign-in
 * page does not download the whole shell.
 */
export function firstLoadChunks(graph: ModuleGraph, { entry, shell, home }: FirstLoadRoots): Map<string, FirstLoadChunk> {
  const initial = staticallyReachable(graph, entry);
  const signedIn = staticallyReachable(graph, shell);
  const usedElsewhere = new Set<string>();
  for (const part of loadedOnDemand(graph, entry)) {
    if (part === home || part === shell) continue;
    for (const id of staticallyReachable(graph, part)) usedElsewhere.add(id);
  }
  for (const id of staticallyReachable(graph, home)) if (id !== home && usedElsewhere.has(id)) signedIn.add(id);

  const signedOutParts = [...initial]
    .flatMap((id) => graph.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
    .filter((part) => part !== shell && part !== home);
  const signedOut = new Set(signedOutParts.flatMap((part) => [...staticallyReachable(graph, part)]));

  const chunks = new Map<string, FirstLoadChunk>();
  for (const id of signedIn) {
    if (!initial.has(id)) chunks.set(id, signedOut.has(id) ? "shared-with-sign-in" : "signed-in");
  }
  return chunks;
}

/** firstLoadChunks as a group's `name` function for the bundler (null: the bundler decides). */
export const firstLoadChunkName = (roots: FirstLoadRoots) => walkedOnce((graph) => firstLoadChunks(graph, roots));

export interface PageRoots extends FirstLoadRoots {
  /** The pages a visitor may land on besides the home page (their route modules). */
  pages: readonly string[];
}

/**
 * The modules the pages' groups place. Left alone, the bundler gave each page ten to twenty files, one per set of
 * importers (dialogs loaded on demand share parts with the pages), fetched six at a time over HTTP/1.1. What two or
 * more of the pages import (beyond the first load's groups) goes to "pages-common"; what one page imports that parts
 * loaded on demand import too goes, when there are two or more, to that page's "<page>-parts" (a dialog elsewhere that
 * needs one of them downloads that file, not the page); what only the page uses stays in its own chunk. A page is then
 * at most three files.
 */
export function pageChunks(graph: ModuleGraph, roots: PageRoots): Map<string, string> {
  const taken = new Set([...staticallyReachable(graph, roots.entry), ...firstLoadChunks(graph, roots).keys()]);
  // A page's own module stays the facade of its chunk (two paths may name one page).
  const pages = new Set(roots.pages);
  const reachedFrom = new Map<string, string[]>();
  for (const page of pages) {
    for (const id of staticallyReachable(graph, page)) {
      if (!taken.has(id) && !pages.has(id)) reachedFrom.set(id, [...(reachedFrom.get(id) ?? []), page]);
    }
  }
  const reachedElsewhere = new Set<string>();
  for (const part of loadedOnDemand(graph, roots.entry)) {
    if (part === roots.shell || part === roots.home || pages.has(part)) continue;
    for (const id of staticallyReachable(graph, part)) reachedElsewhere.add(id);
  }
  const chunks = new Map<string, string>();
  const partsOf = new Map<string, string[]>();
  for (const [id, from] of reachedFrom) {
    if (from.length > 1) chunks.set(id, "pages-common");
    else if (reachedElsewhere.has(id)) partsOf.set(from[0]!, [...(partsOf.get(from[0]!) ?? []), id]);
  }
  // One such module is one file either way.
  for (const [page, parts] of partsOf) if (parts.length > 1) for (const id of parts) chunks.set(id, `${baseName(page)}-parts`);
  return chunks;
}

/** A module's file name without its folder and extension. */
const baseName = (id: string) => id.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");

/** A group's `name` function from a placement: the graph is walked once per build. */
function walkedOnce<Name extends string>(place: (graph: ModuleGraph) => Map<string, Name>) {
  const walked = new WeakMap<ModuleGraph, Map<string, Name>>();
  return (id: string, graph: ModuleGraph): Name | null => {
    let chunks = walked.get(graph);
    if (!chunks) {
      chunks = place(graph);
      walked.set(graph, chunks);
    }
    return chunks.get(id) ?? null;
  };
}

/**
 * pageChunks as two groups' `name` functions: "common" places pages-common, "parts" each page's parts. The bundler
 * gives the first its modules first (a higher priority), so that a page's parts do not take what pages share along
 * as their dependencies.
 */
export function pageChunkName(roots: PageRoots) {
  const named = walkedOnce((graph) => pageChunks(graph, roots));
  return (kind: "common" | "parts") => (id: string, graph: ModuleGraph) => {
    const chunk = named(id, graph);
    return chunk !== null && (chunk === "pages-common") === (kind === "common") ? chunk : null;
  };
}
