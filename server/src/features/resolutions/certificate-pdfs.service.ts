// Resolutions' certificates as PDFs, for whoever keeps a copy of the board's record (its archive): a written
// resolution's as it is filed in the library, a voted one's made from its frozen certificate; each carries its
// certificate.json inside.
export { certificateDocumentName } from "./written-certificate-file";
export { certificateFromPdf, renderWrittenCertificatePdf } from "./written-certificate-pdf";
export { renderVoteCertificatePdf, type VotedResolution } from "./vote-certificate-pdf";
