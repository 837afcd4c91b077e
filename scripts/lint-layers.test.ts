import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";

/**
 * Proof that the import zones in eslint.config.js bite: each case lints a deliberately wrong import,
 * as a file at the named place in the tree would, and expects the named rule to refuse it. A layer
 * rule that stops matching (a renamed folder, a typo in a zone) fails here instead of going quiet.
 */
const root = join(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe("import layers", () => {
  it("refuses an import cycle", async () => {
    const dir = mkdtempSync(join(root, "client/src/lib/cycle-probe-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
      writeFileSync(join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = () => a;\n');
      const [result] = await eslint.lintFiles([join(dir, "a.ts")]);
      expect(result?.messages.map((message) => message.ruleId)).toContain("import-x/no-cycle");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets the client import shared code", async () => {
    expect(await ruleIdsFor("client/src/lib/probe.ts", 'import { can } from "@shared/permissions";\nexport const probe = can;\n')).toEqual([]);
  });
});
