// npm run verify-resolution -- <certificate.json | certificate.pdf>: checks a written resolution's certificate on
// this machine, with no database and no network. A PDF is read for the certificate.json attached inside it. Prints
// one line per signer and "valid" (exit 0), or names the first thing that does not hold (exit 1); 2: usage.
import { readFile } from "node:fs/promises";
import { checkWrittenCertificate } from "../../server/src/crypto/written-certificate-check";

const usage = "Usage: npm run verify-resolution -- <certificate.json | certificate.pdf>";

/** The certificate in the file: its JSON, or the JSON attached to a PDF (pdf-lib is loaded only for a PDF). */
async function certificateIn(bytes: Buffer): Promise<unknown> {
  if (bytes.subarray(0, 5).toString("latin1") === "%PDF-") {
    const { certificateFromPdf } = await import("../../server/src/features/resolutions/written-certificate-pdf");
    return certificateFromPdf(new Uint8Array(bytes));
  }
  return JSON.parse(bytes.toString("utf8")) as unknown;
}

async function verify(path: string): Promise<number> {
  let certificate: unknown;
  try {
    certificate = await certificateIn(await readFile(path));
  } catch (error) {
    console.log(`not valid: cannot read a certificate from ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const checked = await checkWrittenCertificate(certificate);
  for (const line of checked.lines) console.log(line);
  if (!checked.valid) {
    console.log(`not valid: ${checked.failure}`);
    return 1;
  }
  console.log("valid");
  return 0;
}

async function main(): Promise<number> {
  const [path, ...rest] = process.argv.slice(2);
  if (!path || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  return verify(path);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
