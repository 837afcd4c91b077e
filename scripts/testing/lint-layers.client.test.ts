import { rulesBrokenBy } from "./lint-probe";

/**
 * Proof that the client's import zones bite: each case lints one import as a file at that place in
 * client/src would, and expects `import-x/no-restricted-paths` to refuse it, or to let it pass.
 * The imported modules exist, so each refusal is the zone's and not an unresolved path.
 */
const zoneRule = "import-x/no-restricted-paths";

/** A module whose only content is one import, used so no other rule has anything to say. */
const importing = (specifier: string) => `import * as probe from "${specifier}";\nexport { probe };\n`;

// Each lint takes tens of milliseconds, but seconds while the machine is busy with other suites.
describe("client import zones", { timeout: 30_000 }, () => {
  // The first lint loads the configuration, the plugins and the TypeScript resolver: seconds on a busy machine.
  beforeAll(() => rulesBrokenBy("client/src/lib/probe.ts", importing("@/lib/utils")), 60_000);

  it.each([
    ["refuse", "components/ importing a feature", "client/src/components/probe.ts", "@/features/meetings/lib/listed-meeting"],
    ["refuse", "components/ importing the app", "client/src/components/probe.ts", "@/app/route-table"],
    ["refuse", "lib/ importing a feature", "client/src/lib/probe.ts", "@/features/documents/api/document-keys"],
    ["refuse", "lib/ importing the app", "client/src/lib/auth/probe.ts", "@/app/schedule-meeting"],
    ["refuse", "a feature importing the app", "client/src/features/meetings/probe.ts", "@/app/route-table"],
    [
      "refuse",
      "a feature importing another feature's components",
      "client/src/features/meetings/probe.ts",
      "@/features/companies/components/member-card",
    ],
    [
      "refuse",
      "a feature importing another feature's api",
      "client/src/features/meetings/probe.ts",
      "@/features/documents/api/get-documents",
    ],
    [
      "refuse",
      "a feature importing another feature by a relative path",
      "client/src/features/meetings/components/probe.ts",
      "../../companies/api/get-members",
    ],
    ["let pass", "components/ importing lib/", "client/src/components/probe.ts", "@/lib/utils"],
    ["let pass", "lib/ importing lib/", "client/src/lib/probe.ts", "@/lib/auth/active-company"],
    [
      "let pass",
      "a feature importing its own modules",
      "client/src/features/meetings/components/probe.ts",
      "@/features/meetings/lib/listed-meeting",
    ],
    ["let pass", "a feature importing components/ and lib/", "client/src/features/meetings/probe.ts", "@/components/page-title"],
    ["let pass", "a page importing several features", "client/src/app/routes/probe.ts", "@/features/documents/api/get-documents"],
    [
      "let pass",
      "the layout importing a feature",
      "client/src/app/layout/probe.ts",
      "@/features/notifications/components/notifications-menu",
    ],
  ] as const)("%s %s", async (verdict, _case, filePath, specifier) => {
    const broken = await rulesBrokenBy(filePath, importing(specifier));
    if (verdict === "refuse") expect(broken).toContain(zoneRule);
    else expect(broken).toEqual([]);
  });
});

describe("client calls endpoints through their declarations", { timeout: 30_000 }, () => {
  const byHand = 'export const read = () => fetch("/api/companies");\n';
  const byTemplate = "export const read = (id: number) => fetch(`/api/resolutions/${id}/votes`);\n";
  const declared =
    'import { callApi } from "@/lib/api-client";\nimport * as api from "@shared/api/resolutions";\nexport const read = (id: number) => callApi(api.getResolution, { params: { id } });\n';

  it.each([
    ["refuses", "an /api/ string in a feature", "client/src/features/meetings/api/probe.ts", byHand],
    ["refuses", "an /api/ template in a page", "client/src/app/routes/probe.tsx", byTemplate],
    ["refuses", "an /api/ string in lib/", "client/src/lib/probe.ts", byHand],
    ["lets pass", "a call through a declaration", "client/src/features/meetings/api/probe.ts", declared],
    ["lets pass", "the one call function building addresses", "client/src/lib/api-client.ts", byTemplate],
  ] as const)("%s %s", async (verdict, _case, filePath, code) => {
    const broken = await rulesBrokenBy(filePath, code);
    if (verdict === "refuses") expect(broken).toContain("no-restricted-syntax");
    else expect(broken).not.toContain("no-restricted-syntax");
  });
});

describe("client tests fake endpoints through their declarations", { timeout: 30_000 }, () => {
  const fakedByHand =
    'import { http, HttpResponse } from "msw";\nexport const fake = http.get("/api/companies/:companyId/documents", () => HttpResponse.json([]));\n';
  const countedByTemplate = "export const votesRead = (id: number) => `/api/resolutions/${id}/votes`;\n";
  const fakedByDeclaration =
    'import * as documentsApi from "@shared/api/documents";\nimport { apiUrl } from "@/lib/api-client";\nimport { handle } from "@/testing/handle";\n' +
    "export const fake = handle(documentsApi.listLibrary, () => [], { params: { companyId: 3 } });\n" +
    "export const read = apiUrl(documentsApi.listLibrary, { params: { companyId: 3 } });\n";

  it.each([
    ["refuses", "a fake of a hand-written address in a feature's test", "client/src/features/documents/probe.test.tsx", fakedByHand],
    ["refuses", "a hand-written address in an app test", "client/src/app/probe.test.tsx", countedByTemplate],
    ["refuses", "a hand-written address in the shared fakes", "client/src/testing/probe.ts", fakedByHand],
    ["lets pass", "a fake and an address named by their declaration", "client/src/features/documents/probe.test.tsx", fakedByDeclaration],
    ["lets pass", "the request convention's own test of any address", "client/src/lib/api-client.test.ts", countedByTemplate],
  ] as const)("%s %s", async (verdict, _case, filePath, code) => {
    const broken = await rulesBrokenBy(filePath, code);
    if (verdict === "refuses") expect(broken).toContain("no-restricted-syntax");
    else expect(broken).toEqual([]);
  });
});
