import { firstLoadChunkName, firstLoadChunks, type ModuleGraph } from "./chunk-groups";

/** A module graph from lists of static and dynamic imports. */
function graphOf(modules: Record<string, { imports?: string[]; loads?: string[] }>): ModuleGraph & { reads: number } {
  const graph = {
    reads: 0,
    getModuleInfo(id: string) {
      graph.reads++;
      const module = modules[id];
      return module ? { importedIds: module.imports ?? [], dynamicallyImportedIds: module.loads ?? [] } : null;
    },
  };
  return graph;
}

// main imports react and loads the shell, the home page and the toaster on demand; the shell loads the pages.
const app = graphOf({
  main: { imports: ["react", "router"], loads: ["shell", "home", "toaster"] },
  router: { imports: ["react"] },
  react: {},
  shell: { imports: ["react", "menu", "layer", "date"], loads: ["home", "meetings"] },
  menu: { imports: ["layer"] },
  layer: {},
  date: {},
  home: { imports: ["panel", "badge", "date"] },
  panel: {},
  badge: {},
  meetings: { imports: ["badge", "table"] },
  table: {},
  toaster: { imports: ["layer", "react"] },
});
const roots = { entry: "main", shell: "shell", home: "home" };

describe("the first load's chunks", () => {
  it("groups the shell with what the home page shares with other pages, and leaves out what the entry holds", () => {
    const chunks = firstLoadChunks(app, roots);
    expect(Object.fromEntries(chunks)).toEqual({
      shell: "signed-in",
      menu: "signed-in",
      date: "signed-in",
      // The home page shares the badge with the meetings page.
      badge: "signed-in",
      // The toaster, loaded on the sign-in page too, uses the layer: a toast must not download the shell.
      layer: "shared-with-sign-in",
    });
  });

  it("leaves to the bundler what only the home page or only another page uses", () => {
    const chunks = firstLoadChunks(app, roots);
    for (const id of ["home", "panel", "meetings", "table", "toaster", "react", "router", "main"]) expect(chunks.has(id)).toBe(false);
  });

  it("walks the graph once per build, not once per module", () => {
    const name = firstLoadChunkName(roots);
    expect(name("shell", app)).toBe("signed-in");
    const readsAfterWalk = app.reads;
    expect(name("layer", app)).toBe("shared-with-sign-in");
    expect(name("table", app)).toBeNull();
    expect(app.reads).toBe(readsAfterWalk);
  });
});
