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
 * The modules the pages' group places: what two or more of the pages import (beyond the first load's groups) goes to
 * "pages-common". Left alone, the bundler gave each page ten to twenty files, one per set of importers (dialogs loaded
 * on demand share parts with the pages), fetched six at a time over HTTP/1.1; now a page is its own chunk and this
 * one, with what it shares with dialogs alone left to the bundler.
 */
export function pageChunks(graph: ModuleGraph, roots: PageRoots): Map<string, "pages-common"> {
  const taken = new Set([...staticallyReachable(graph, roots.entry), ...firstLoadChunks(graph, roots).keys()]);
  // A page's own module stays the facade of its chunk (two paths may name one page).
  const pages = new Set(roots.pages);
  const seenFrom = new Map<string, number>();
  for (const page of pages) {
    for (const id of staticallyReachable(graph, page)) {
      if (!taken.has(id) && !pages.has(id)) seenFrom.set(id, (seenFrom.get(id) ?? 0) + 1);
    }
  }
  return new Map([...seenFrom].filter(([, count]) => count > 1).map(([id]) => [id, "pages-common"]));
}

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

/** pageChunks as a group's `name` function for the bundler. */
export const pageChunkName = (roots: PageRoots) => walkedOnce((graph) => pageChunks(graph, roots));
