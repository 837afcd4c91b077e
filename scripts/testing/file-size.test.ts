import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./lint-probe";

/**
 * A file in a feature does one thing, and one thing fits in 300 lines: past that a file holds two acts, two
 * screens or two sets of tests, and is split along that seam (tests included, named by what they test).
 */
const maxLines = 300;
const featureRoots = ["server/src/features", "client/src/features"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

describe("files under features/", () => {
  it(`are at most ${maxLines} lines each`, () => {
    const files = featureRoots.flatMap((root) => sourceFiles(join(repoRoot, root)));
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .map((file) => ({ file: relative(repoRoot, file), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > maxLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
