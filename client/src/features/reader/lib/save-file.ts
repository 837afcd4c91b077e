/** Hands a file to the browser to save, through a short-lived object URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cut the download short in some browsers; the URL is only needed while it starts.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
