import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoEslint, repoRoot, rulesBrokenBy } from "./lint-probe";

/**
 * Proof that the lint rules on imports bite: each case lints a deliberately wrong import, as a file
 * at that place in the tree would, and expects the rule to refuse it. The client's and the server's
 * zones have their own files beside this one (lint-layers.client.test.ts, lint-layers.server.test.ts).
 */
describe("import rules", () => {
  it("refuse an import cycle", async () => {
    const dir = mkdtempSync(join(repoRoot, "client/src/lib/cycle-probe-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
      writeFileSync(join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = () => a;\n');
      const [result] = await repoEslint.lintFiles([join(dir, "a.ts")]);
      expect(result?.messages.map((message) => message.ruleId)).toContain("import-x/no-cycle");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("let the client import shared code", async () => {
    expect(
      await rulesBrokenBy("client/src/lib/probe.ts", 'import { can } from "@shared/permissions";\nexport const probe = can;\n'),
    ).toEqual([]);
  });
});

describe("wire schemas", () => {
  it("refuse a raw zod string or number outside the input primitives", async () => {
    const code = 'import { z } from "zod";\nexport const probe = z.object({ a: z.string(), b: z.number(), c: z.coerce.number() });\n';
    expect(await rulesBrokenBy("shared/probe.ts", code)).toEqual(["no-restricted-syntax", "no-restricted-syntax", "no-restricted-syntax"]);
    expect(await rulesBrokenBy("shared/input.ts", code)).toEqual([]);
  });

  it("accept fields built from the primitives", async () => {
    const code =
      'import { z } from "zod";\nimport { id, text } from "./input";\nexport const probe = z.object({ a: text({ max: 10 }), b: id() });\n';
    expect(await rulesBrokenBy("shared/probe.ts", code)).toEqual([]);
  });
});
