import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderWrittenCertificatePdf } from "../../server/src/features/resolutions/written-certificate-pdf";
import { writtenCertificateFixture } from "../../server/src/testing/written-certificate-fixtures";

// npm run verify-resolution, run as the child process anyone checking a certificate runs, on files written here.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "quorum-verify-resolution-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const certificate = writtenCertificateFixture({
  rule: { kind: "majority" },
  directors: [
    { name: "Jane Doe", decision: "agree" },
    { name: "Raj Patel", decision: "disagree", method: "password" },
    { name: "Mia Chen", decision: "agree" },
  ],
});

async function file(name: string, contents: string | Uint8Array): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, contents);
  return path;
}

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/ops/verify-resolution.ts", ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const signerLines = [
  expect.stringMatching(
    /^Jane Doe \(user 101\): agree by passkey at 2026-06-01T10:00:00.000Z, credential [\w-]+, key sha256 [0-9a-f]{64}: signature verified$/,
  ),
  "Raj Patel (user 102): disagree by password at 2026-06-01T11:00:00.000Z: statement ok; a password signature cannot be checked offline",
  expect.stringMatching(
    /^Mia Chen \(user 103\): agree by passkey at 2026-06-01T12:00:00.000Z, credential [\w-]+, key sha256 [0-9a-f]{64}: signature verified$/,
  ),
  "approved: 2 agree, 1 disagree, 0 meeting of 3 eligible, under the majority rule",
  "2 of 3 signatures verified with their passkeys; 1 by password rest on Quorum's record",
];

// Each run starts Node and tsx (a second or so).
describe("npm run verify-resolution", { timeout: 30_000 }, () => {
  it("passes a valid certificate.json: one line per signer and valid (exit 0)", async () => {
    const result = await run(await file("certificate.json", JSON.stringify(certificate, null, 2)));
    expect(result.stdout.trimEnd().split("\n")).toEqual([...signerLines, "valid"]);
    expect(result.code).toBe(0);
  });

  it("passes the certificate attached to its PDF (exit 0)", async () => {
    const result = await run(await file("certificate.pdf", await renderWrittenCertificatePdf(certificate, { company: "Acme Ltd" })));
    expect(result.stdout.trimEnd().split("\n")).toEqual([...signerLines, "valid"]);
    expect(result.code).toBe(0);
  });

  it("names the first thing that does not hold in a tampered certificate, in JSON or a PDF (exit 1)", async () => {
    const tampered = structuredClone(certificate);
    tampered.signatures[2]!.decision = "disagree";
    const fromJson = await run(await file("tampered.json", JSON.stringify(tampered)));
    expect(fromJson.stdout.trimEnd().split("\n")).toEqual([
      ...signerLines.slice(0, 2),
      'not valid: Mia Chen (user 103): the signed statement names the decision "agree", not "disagree"',
    ]);
    expect(fromJson.code).toBe(1);
    const fromPdf = await run(await file("tampered.pdf", await renderWrittenCertificatePdf(tampered)));
    expect(fromPdf.stdout).toContain('not valid: Mia Chen (user 103): the signed statement names the decision "agree", not "disagree"');
    expect(fromPdf.code).toBe(1);
  });

  it("refuses what holds no certificate (exit 1), and says how to use it without a file (exit 2)", async () => {
    const notJson = await run(await file("notes.txt", "not a certificate"));
    expect(notJson.stdout).toMatch(/^not valid: cannot read a certificate from .*notes\.txt: /);
    expect(notJson.code).toBe(1);
    const missing = await run(join(directory, "nothing-here.json"));
    expect(missing.stdout).toMatch(/^not valid: cannot read a certificate from .*nothing-here\.json: ENOENT/);
    expect(missing.code).toBe(1);
    const usage = await run();
    expect(usage.stderr).toContain("Usage: npm run verify-resolution -- <certificate.json | certificate.pdf>");
    expect(usage.code).toBe(2);
  });
});
