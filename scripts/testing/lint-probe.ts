import { join } from "node:path";
import { ESLint } from "eslint";

/** Lints code as if it were a file at `filePath` in this repository: the rule ids it breaks. */
export const repoRoot = join(import.meta.dirname, "../..");
export const repoEslint = new ESLint({ cwd: repoRoot });

export async function rulesBrokenBy(filePath: string, code: string): Promise<string[]> {
  const [result] = await repoEslint.lintText(code, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}
