import { firstLoadChunkName, firstLoadChunks, pageChunkName, pageChunks, type ModuleGraph } from "./chunk-groups";

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

// The shell loads three pages and two dialogs; the pages share a header and a list; the documents page shares a picker
// and a field with a dialog, the settings page a form with the other.
const pagesApp = graphOf({
  main: { imports: ["react"], loads: ["shell", "home"] },
  react: {},
  shell: { imports: ["react", "menu"], loads: ["home", "meetings", "documents", "settings", "dialog", "other"] },
  menu: {},
  home: { imports: ["menu", "header"] },
  meetings: { imports: ["header", "list", "meetingRow"] },
  documents: { imports: ["header", "list", "picker", "field"] },
  settings: { imports: ["header", "form"] },
  meetingRow: {},
  list: { imports: ["scroller"] },
  scroller: {},
  header: {},
  picker: {},
  field: {},
  form: {},
  dialog: { imports: ["picker", "field"] },
  other: { imports: ["form"] },
});
const pageRoots = { entry: "main", shell: "shell", home: "home", pages: ["meetings", "documents", "settings", "meetings"] };

describe("the pages' chunks", () => {
  it("puts what two or more pages import in pages-common, and what one page shares with dialogs in its parts", () => {
    expect(Object.fromEntries(pageChunks(pagesApp, pageRoots))).toEqual({
      list: "pages-common",
      scroller: "pages-common",
      picker: "documents-parts",
      field: "documents-parts",
    });
  });

  it("leaves to the bundler the pages themselves, what one page alone uses, a page's one shared part, and the first load's", () => {
    const chunks = pageChunks(pagesApp, pageRoots);
    // The shell's menu, and the header the home page shares with the other pages, are the first load's.
    expect(firstLoadChunks(pagesApp, pageRoots).get("header")).toBe("signed-in");
    for (const id of ["meetings", "documents", "settings", "meetingRow", "form", "dialog", "other", "menu", "header", "react"]) {
      expect(chunks.has(id), id).toBe(false);
    }
  });

  it("names each group's modules alone, and walks the graph once per build", () => {
    const name = pageChunkName(pageRoots);
    expect(name("common")("list", pagesApp)).toBe("pages-common");
    const readsAfterWalk = pagesApp.reads;
    expect(name("common")("picker", pagesApp)).toBeNull();
    expect(name("parts")("picker", pagesApp)).toBe("documents-parts");
    expect(name("parts")("list", pagesApp)).toBeNull();
    expect(pagesApp.reads).toBe(readsAfterWalk);
  });
});
