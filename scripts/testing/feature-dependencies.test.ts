import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { repoRoot } from "./lint-probe";

/**
 * Features depend on each other one way only: when feature A imports feature B, B never imports A (not even
 * a type, not even from a test). The lint rule on cycles sees only cycles between files; two features can
 * tangle through different files, which only the graph of features shows.
 */

/** Where features live, and the aliases their imports may use (as vite.config.ts and the tsconfigs spell them). */
const featureRoots = ["server/src/features", "client/src/features"];
const aliases: Record<string, string> = { "@/": "client/src/", "@shared/": "shared/", "@server/": "server/src/" };

interface FeatureImport {
  from: string;
  to: string;
  /** The importing file, relative to the root, and the specifier it wrote. */
  file: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a path (relative to the root) lies in, named by its folder ("server/src/features/documents"); null outside features. */
function featureOf(path: string): string | null {
  const match = /^((?:server|client)\/src\/features\/[^/]+)(?:\/|$)/.exec(path.split("\\").join("/"));
  return match ? match[1]! : null;
}

/** The path (relative to the root) a specifier names; null for a package. */
function resolveSpecifier(root: string, file: string, specifier: string): string | null {
  if (specifier.startsWith(".")) return relative(root, resolve(dirname(file), specifier));
  const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
  return alias ? join(aliases[alias]!, specifier.slice(alias.length)) : null;
}

/** Every import (static, re-export, dynamic, type-only) from one feature into another, under `root`. */
function featureImports(root: string): FeatureImport[] {
  return featureRoots.flatMap((featureRoot) =>
    sourceFiles(join(root, featureRoot)).flatMap((path) => {
      const file = relative(root, path);
      const from = featureOf(file)!;
      const { importedFiles } = ts.preProcessFile(readFileSync(path, "utf8"), true, true);
      return importedFiles.flatMap(({ fileName: specifier }) => {
        const target = resolveSpecifier(root, path, specifier);
        const to = target === null ? null : featureOf(target);
        return to !== null && to !== from ? [{ from, to, file, specifier }] : [];
      });
    }),
  );
}

/** Each pair of features that import each other, with one import each way as the evidence. */
function mutualDependencies(imports: FeatureImport[]): string[] {
  const first = new Map<string, FeatureImport>();
  for (const edge of imports) if (!first.has(`${edge.from} → ${edge.to}`)) first.set(`${edge.from} → ${edge.to}`, edge);
  const found: string[] = [];
  for (const [key, there] of first) {
    const back = first.get(`${there.to} → ${there.from}`);
    if (!back || there.from > there.to) continue;
    found.push(`${key} and back: ${there.file} imports "${there.specifier}"; ${back.file} imports "${back.specifier}"`);
  }
  return found.sort();
}

describe("feature dependencies", () => {
  it("go one way only: no two features import each other", () => {
    expect(mutualDependencies(featureImports(repoRoot))).toEqual([]);
  });

  it("are read from relative paths, the @/ alias, re-exports, dynamic and type-only imports", () => {
    const root = mkdtempSync(join(tmpdir(), "feature-dependencies-"));
    const write = (path: string, code: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), code);
    };
    try {
      // Two server features tangled through different files (no file cycle), a third used one way.
      write("server/src/features/a/a.service.ts", 'import { b } from "../b/b.service";\nexport const a = b;\n');
      write("server/src/features/b/b.service.ts", 'import { c } from "../c/c.service";\nexport const b = c;\n');
      write("server/src/features/b/helper.ts", 'export type { A } from "../a/types";\n');
      write("server/src/features/c/c.service.ts", 'import { shared } from "../../../../shared/thing";\nexport const c = shared;\n');
      // Client features through the alias and a lazy import; the app and shared code are not features.
      write("client/src/features/x/x.tsx", 'import type { Y } from "@/features/y/api/y";\nimport "@/app/routes";\nexport type X = Y;\n');
      write("client/src/features/y/api/y.ts", 'export const load = () => import("../../x/x");\nimport { s } from "@shared/s";\n');
      write("client/src/features/z/z.ts", 'import { y } from "@/features/y/api/y";\nexport const z = y;\n');

      expect(mutualDependencies(featureImports(root))).toEqual([
        'client/src/features/x → client/src/features/y and back: client/src/features/x/x.tsx imports "@/features/y/api/y"; client/src/features/y/api/y.ts imports "../../x/x"',
        'server/src/features/a → server/src/features/b and back: server/src/features/a/a.service.ts imports "../b/b.service"; server/src/features/b/helper.ts imports "../a/types"',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
