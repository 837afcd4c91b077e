import { rulesBrokenBy } from "./lint-probe";

/**
 * Proof that the client's import zones bite: each case lints one import as a file at that place in
 * client/src would, and expects `import-x/no-restricted-paths` to refuse it, or to let it pass.
 * The imported modules exist, so each refusal is the zone's and not an unresolved path.
 */
const zoneRule = "import-x/no-restricted-paths";

/** A module whose only content is one import, used so no other rule has anything to say. */
const importing = (specifier: string) => `import * as probe from "${specifier}";\nexport { probe };\n`;

describe("client import zones", () => {
  // The first lint loads the configuration, the plugins and the TypeScript resolver: seconds on a busy machine.
  beforeAll(() => rulesBrokenBy("client/src/lib/probe.ts", importing("@/lib/utils")), 60_000);

  it.each([
    ["components/ importing a feature", "client/src/components/probe.ts", "@/features/meetings/lib/listed-meeting"],
    ["components/ importing the app", "client/src/components/probe.ts", "@/app/route-table"],
    ["lib/ importing a feature", "client/src/lib/probe.ts", "@/features/documents/api/document-keys"],
    ["lib/ importing the app", "client/src/lib/auth/probe.ts", "@/app/schedule-meeting"],
    ["a feature importing the app", "client/src/features/meetings/probe.ts", "@/app/route-table"],
    ["a feature importing another feature's components", "client/src/features/meetings/probe.ts", "@/features/companies/components/member-card"],
    ["a feature importing another feature's api", "client/src/features/meetings/probe.ts", "@/features/documents/api/get-documents"],
    ["a feature importing another feature by a relative path", "client/src/features/meetings/components/probe.ts", "../../companies/api/get-members"],
  ])("refuse %s", async (_case, filePath, specifier) => {
    expect(await rulesBrokenBy(filePath, importing(specifier))).toContain(zoneRule);
  });

  it.each([
    ["components/ importing lib/", "client/src/components/probe.ts", "@/lib/utils"],
    ["lib/ importing lib/", "client/src/lib/probe.ts", "@/lib/auth/active-company"],
    ["a feature importing its own modules", "client/src/features/meetings/components/probe.ts", "@/features/meetings/lib/listed-meeting"],
    ["a feature importing components/ and lib/", "client/src/features/meetings/probe.ts", "@/components/page-title"],
    ["a page importing several features", "client/src/app/routes/probe.ts", "@/features/documents/api/get-documents"],
    ["the layout importing a feature", "client/src/app/layout/probe.ts", "@/features/account/components/notifications-menu"],
  ])("let %s pass", async (_case, filePath, specifier) => {
    expect(await rulesBrokenBy(filePath, importing(specifier))).toEqual([]);
  });
});
