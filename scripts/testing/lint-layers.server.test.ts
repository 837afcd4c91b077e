import { rulesBrokenBy } from "./lint-probe";

/**
 * Proof that the server's layers are rules: each case lints a deliberately wrong import, as a file at that
 * place would, and expects `import-x/no-restricted-paths` to refuse it. The layers, top to bottom:
 * index.ts → app.ts → features/<f>/ → integrations/ → http/ → db/ → env.ts, logger.ts, clock.ts.
 */
const restricted = "import-x/no-restricted-paths";

/** A file that imports `name` from `from` and uses it. */
const importing = (name: string, from: string) => `import { ${name} } from "${from}";\nexport const probe = ${name};\n`;
const importingType = (name: string, from: string) => `import type { ${name} } from "${from}";\nexport type Probe = ${name};\n`;

describe("server layers refuse", () => {
  it.each([
    ["the foundation importing the database", "server/src/clock.ts", importing("openDatabase", "./db/client")],
    ["crypto/ importing the database", "server/src/crypto/probe.ts", importing("openDatabase", "../db/client")],
    ["db/ importing http/", "server/src/db/probe.ts", importing("HttpError", "../http/errors")],
    ["db/ importing a feature", "server/src/db/probe.ts", importing("listDocuments", "../features/documents/documents.service")],
    ["db/ importing an integration", "server/src/db/probe.ts", importing("encryptSecret", "../integrations/secrets")],
    ["db/ importing app.ts", "server/src/db/probe.ts", importing("createApp", "../app")],
    ["db/ importing app-deps.ts", "server/src/db/probe.ts", importingType("AppDeps", "../app-deps")],
    ["http/ importing a feature", "server/src/http/probe.ts", importing("register", "../features/auth/auth.service")],
    ["http/ importing an integration", "server/src/http/probe.ts", importing("completeChat", "../integrations/ai-chat")],
    ["http/ importing app.ts", "server/src/http/probe.ts", importing("createApp", "../app")],
    ["http/ importing app-deps.ts", "server/src/http/probe.ts", importingType("RouterDeps", "../app-deps")],
    [
      "an integration importing a feature",
      "server/src/integrations/probe.ts",
      importing("generateAgenda", "../features/meetings/agenda.service"),
    ],
    ["an integration importing app.ts", "server/src/integrations/probe.ts", importing("createApp", "../app")],
    ["an integration importing app-deps.ts", "server/src/integrations/probe.ts", importingType("AppDeps", "../app-deps")],
    ["an integration throwing HTTP errors", "server/src/integrations/probe.ts", importing("HttpError", "../http/errors")],
    ["a feature importing app.ts", "server/src/features/documents/probe.ts", importing("createApp", "../../app")],
    [
      "a feature importing another feature's routes",
      "server/src/features/documents/probe.ts",
      importing("meetingsRouter", "../meetings/meetings.routes"),
    ],
    [
      "a feature importing another feature's helper",
      "server/src/features/documents/probe.ts",
      importing("templateAgenda", "../meetings/agenda-drafts"),
    ],
  ])("%s", async (_label, file, code) => {
    expect(await rulesBrokenBy(file, code)).toContain(restricted);
  });
});

describe("server layers allow", () => {
  it("a feature to import its own files, another feature's service and guard, and every layer below it", async () => {
    const code = [
      'import { listDocuments } from "./documents.service";',
      'import { scheduleMeeting } from "../meetings/meetings.service";',
      'import { meetingCompanyGuard } from "../meetings/meetings.guard";',
      'import type { ServiceDeps } from "../../app-deps";',
      'import { completeChat } from "../../integrations/ai-chat";',
      'import { tenantOf } from "../../http/guards";',
      'import { documents } from "../../db/schema";',
      'import { systemClock } from "../../clock";',
      "export const probe = [listDocuments, scheduleMeeting, meetingCompanyGuard, completeChat, tenantOf, documents, systemClock];",
      'export type Probe = ServiceDeps<"db">;',
      "",
    ].join("\n");
    expect(await rulesBrokenBy("server/src/features/documents/probe.ts", code)).toEqual([]);
  });

  it("http/ to import db/, and a test anywhere to build the whole app", async () => {
    expect(await rulesBrokenBy("server/src/http/probe.ts", importing("sessions", "../db/schema"))).toEqual([]);
    expect(await rulesBrokenBy("server/src/db/probe.test.ts", importing("createTestContext", "../testing/test-context"))).toEqual([]);
  });
});
