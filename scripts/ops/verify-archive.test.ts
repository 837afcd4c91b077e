import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZipFile } from "yazl";
import { auditEventHash, genesisHash, type ChainedAuditEvent } from "../../shared/audit-chain";
import type { Certificate } from "../../shared/resolutions";
import { renderVoteCertificatePdf, renderWrittenCertificatePdf } from "../../server/src/features/resolutions/certificate-pdfs.service";
import { writtenCertificateFixture } from "../../server/src/testing/written-certificate-fixtures";
import { verifyArchive } from "./verify-archive";

// npm run audit -- verify-archive on archives made here as the server makes them (yazl, a manifest of every file),
// then each with one thing changed: the first file that does not hold is named.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "quorum-verify-archive-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

interface File {
  path: string;
  bytes: Buffer;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

async function auditTrail(count: number): Promise<{ text: string; head: string }> {
  const lines: string[] = [];
  let prevHash = genesisHash;
  for (let seq = 1; seq <= count; seq += 1) {
    const body = { seq, at: `2026-06-01T09:00:0${seq}.000Z`, actorId: 1, companyId: 3, action: "document.uploaded" };
    const event = { ...body, targetType: "document", targetId: String(seq), details: { seq }, prevHash };
    const hash = await auditEventHash(event);
    lines.push(JSON.stringify({ ...event, hash } satisfies ChainedAuditEvent));
    prevHash = hash;
  }
  lines.push(JSON.stringify({ headHash: prevHash, count }));
  return { text: `${lines.join("\n")}\n`, head: prevHash };
}

/** A voted resolution's certificate as the server freezes it: three eligible, two yes and one no. */
const votedCertificate: Certificate = {
  decidedAt: "2026-06-02T10:00:00.000Z",
  outcome: "approved",
  rule: "an Ordinary resolution needs more yes than no votes",
  quorum: { rule: "more than half of the eligible voters", required: 2, present: 3, met: true },
  eligible: [1, 2, 3].map((userId) => ({ userId, name: `Director ${userId}`, role: "member" })),
  recused: [],
  votes: (["yes", "yes", "no"] as const).map((vote, index) => ({
    userId: index + 1,
    name: `Director ${index + 1}`,
    vote,
    comment: null,
    castAt: `2026-06-02T0${index + 1}:00:00.000Z`,
  })),
  yes: 2,
  no: 1,
  abstain: 0,
  explanation: "Approved: 2 yes, 1 no, 0 abstain of 3 eligible",
};

const written = writtenCertificateFixture({
  companyId: 3,
  resolutionId: 8,
  directors: [
    { name: "Fay", decision: "agree" },
    { name: "Ann", decision: "agree" },
  ],
});

/** The files of a small archive, in the server's order (manifest.json apart). */
async function archiveFiles(): Promise<{ files: File[]; head: string }> {
  const trail = await auditTrail(4);
  const about = { id: 7, title: "Approve the budget", description: "That the budget be approved.", type: "Ordinary", company: "Acme" };
  return {
    head: trail.head,
    files: [
      { path: "audit.jsonl", bytes: Buffer.from(trail.text) },
      { path: "README.txt", bytes: Buffer.from("The archive.\n") },
      { path: "papers/Library/Financial/Budget (1)/v1 Budget.pdf", bytes: Buffer.from("%PDF-1.7 not much of a paper") },
      { path: "certificates/Approve the budget (7)/certificate.json", bytes: json(votedCertificate) },
      {
        path: "certificates/Approve the budget (7)/certificate.pdf",
        bytes: Buffer.from(await renderVoteCertificatePdf(votedCertificate, about)),
      },
      { path: "certificates/Open a Berlin office (8)/certificate.json", bytes: json(written) },
      {
        path: "certificates/Open a Berlin office (8)/certificate.pdf",
        bytes: Buffer.from(await renderWrittenCertificatePdf(written, { company: "Acme" })),
      },
      { path: "records/votes.csv", bytes: Buffer.from("resolutionId,vote\r\n7,yes\r\n") },
    ],
  };
}

const manifestOf = (files: File[], head: string) => ({
  companyId: 3,
  createdAt: "2026-06-03T09:00:00.000Z",
  auditHeadHash: head,
  files: files.map((file) => ({ path: file.path, sha256: sha256(file.bytes), bytes: file.bytes.length })),
});

let zipCount = 0;
/** Zips the files, then `manifest` as manifest.json, to a file; answers its path. */
async function zipped(files: File[], manifest: unknown): Promise<string> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.bytes, file.path);
  zip.addBuffer(json(manifest), "manifest.json");
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  zipCount += 1;
  const path = join(directory, `archive-${zipCount}.zip`);
  await writeFile(path, Buffer.concat(chunks));
  return path;
}

/** The archive with `change` made to its files, and its manifest made again from them when `rehash` (a forger's). */
async function changed(change: (files: File[]) => void, rehash = false): Promise<string> {
  const { files, head } = await archiveFiles();
  const manifest = manifestOf(files, head);
  change(files);
  return zipped(files, rehash ? manifestOf(files, head) : manifest);
}

const replace = (files: File[], path: string, bytes: Buffer) => {
  files.find((file) => file.path === path)!.bytes = bytes;
};

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/ops/audit.ts", ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe("npm run audit -- verify-archive", { timeout: 30_000 }, () => {
  it("accepts an intact archive with its figures (exit 0), and answers usage and an unreadable zip with exit 2", async () => {
    const { files, head } = await archiveFiles();
    const path = await zipped(files, manifestOf(files, head));
    const [intact, usage] = await Promise.all([run("verify-archive", path), run("verify-archive")]);
    expect(intact.stderr).toBe("");
    expect(intact).toMatchObject({
      code: 0,
      stdout: `ok: 8 files (${files.reduce((sum, file) => sum + file.bytes.length, 0)} bytes) as manifest.json lists them; the audit trail holds 4 events and ends at the manifest's head ${head}; 2 certificates hold (1 written, 1 voted)\n`,
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("npm run audit -- verify-archive <file.zip>");

    // A download cut short has no directory at its end: not a zip at all.
    const whole = await readFile(path);
    const cut = join(directory, "cut.zip");
    await writeFile(cut, whole.subarray(0, whole.length - 200));
    expect(await verifyArchive(cut)).toMatchObject({ code: 2, lines: [expect.stringMatching(/^Cannot read .*cut\.zip/)] });
    expect(await verifyArchive(join(directory, "nowhere.zip"))).toMatchObject({ code: 2 });
  });

  it("names the file whose bytes changed, a file the manifest does not list, and one it lists that is missing (exit 1)", async () => {
    const paper = "papers/Library/Financial/Budget (1)/v1 Budget.pdf";
    const flipped = await changed((files) => replace(files, paper, Buffer.from("%PDF-1.7 not much of a papeR")));
    expect(await verifyArchive(flipped)).toEqual({
      code: 1,
      lines: [expect.stringMatching(/^broken: papers\/Library\/.*v1 Budget\.pdf: its SHA-256 is /)],
    });
    const longer = await changed((files) => replace(files, paper, Buffer.from("%PDF-1.7 not much of a paper, and more")));
    expect((await verifyArchive(longer)).lines[0]).toMatch(/v1 Budget\.pdf: it holds 38 bytes, the manifest says 28$/);

    const added = await changed((files) => files.splice(2, 0, { path: "papers/extra.pdf", bytes: Buffer.from("extra") }));
    expect(await verifyArchive(added)).toEqual({ code: 1, lines: ["broken: papers/extra.pdf: the manifest does not list it"] });
    const removed = await changed((files) => files.splice(2, 1));
    expect(await verifyArchive(removed)).toEqual({
      code: 1,
      lines: [`broken: ${paper}: the manifest lists it but the zip does not hold it`],
    });
  });

  it("names audit.jsonl when its chain breaks or ends elsewhere than the manifest's head, even with the manifest made again", async () => {
    const edited = await changed((files) => {
      const lines = files[0]!.bytes.toString("utf8").split("\n");
      lines[1] = lines[1]!.replace('"details":{"seq":2}', '"details":{"seq":20}');
      files[0]!.bytes = Buffer.from(lines.join("\n"));
    }, true);
    expect((await verifyArchive(edited)).lines).toEqual([
      "broken: audit.jsonl: broken at seq 2: its link or hash does not hold (line 2) (1 events hold before it)",
    ]);

    const shorter = await auditTrail(3);
    const cutOff = await changed((files) => replace(files, "audit.jsonl", Buffer.from(shorter.text)), true);
    expect((await verifyArchive(cutOff)).lines).toEqual([
      `broken: audit.jsonl: the trail ends at head ${shorter.head}, the manifest says ${(await auditTrail(4)).head}`,
    ]);
  });

  it("names a certificate that does not hold, or whose PDF carries another certificate, even with the manifest made again", async () => {
    const voted = "certificates/Approve the budget (7)";
    const tally = await changed((files) => replace(files, `${voted}/certificate.json`, json({ ...votedCertificate, yes: 3 })), true);
    expect((await verifyArchive(tally)).lines).toEqual([
      `broken: ${voted}/certificate.json: its votes give 2 yes, 1 no, 0 abstain, not the 3, 1, 0 recorded`,
    ]);
    const outcome = await changed(
      (files) => replace(files, `${voted}/certificate.json`, json({ ...votedCertificate, outcome: "rejected" })),
      true,
    );
    expect((await verifyArchive(outcome)).lines).toEqual([
      `broken: ${voted}/certificate.json: its votes give approved under its rule, not the rejected recorded`,
    ]);
    const otherPdf = await changed((files) => {
      const written = files.find((file) => file.path.endsWith("(8)/certificate.pdf"))!;
      replace(files, `${voted}/certificate.pdf`, written.bytes);
    }, true);
    expect((await verifyArchive(otherPdf)).lines).toEqual([
      `broken: ${voted}/certificate.pdf: the certificate attached inside it is not the one in certificate.json`,
    ]);

    const signer = await changed((files) => {
      const forged = structuredClone(written);
      forged.signatures[0]!.decision = "disagree";
      replace(files, "certificates/Open a Berlin office (8)/certificate.json", json(forged));
    }, true);
    expect((await verifyArchive(signer)).lines).toEqual([
      expect.stringMatching(
        /^broken: certificates\/Open a Berlin office \(8\)\/certificate\.json: Fay \(user 101\): the signed statement names the decision/,
      ),
    ]);
  });
});
