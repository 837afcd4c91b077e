// How the server is bundled for Node 20 (which does not run TypeScript): one ESM file per entry, with the
// dependencies left in node_modules. `npm run build` and `npm run bench` both bundle with these options.
export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

/**
 * The workers' entries, bundled beside the server's as pdf-worker.js and paper-text-worker.js (the names the server
 * starts them by).
 */
export const pdfWorkerEntry = {
  "pdf-worker": "server/src/features/meeting-record/pdf.worker.ts",
  "paper-text-worker": "server/src/features/documents/paper-text/text.worker.ts",
};
