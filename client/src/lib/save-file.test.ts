import { fileNameFromContentDisposition, safeFileName } from "@/lib/save-file";

describe("fileNameFromContentDisposition", () => {
  it("takes filename* first, then filename, each made safe to save under", () => {
    expect(fileNameFromContentDisposition(`attachment; filename="Q3 - notes.md"; filename*=UTF-8''Q3%20%E2%80%93%20notes.md`)).toBe(
      "Q3 – notes.md",
    );
    expect(fileNameFromContentDisposition(`attachment; filename="a\\"b/c.pdf"`)).toBe("a b c.pdf");
    expect(fileNameFromContentDisposition(`attachment; filename="plain.pdf"; filename*=UTF-8''%E0%A4%A`)).toBe("plain.pdf");
  });

  it("is null without a name, or with nothing left of it", () => {
    expect(fileNameFromContentDisposition(null)).toBeNull();
    expect(fileNameFromContentDisposition("attachment")).toBeNull();
    expect(fileNameFromContentDisposition(`attachment; filename="///"`)).toBeNull();
  });
});

describe("safeFileName", () => {
  it("keeps at most 150 characters, and falls back when nothing is left", () => {
    expect(safeFileName("x".repeat(200), "f")).toHaveLength(150);
    expect(safeFileName("\u0000 | ", "fallback.pdf")).toBe("fallback.pdf");
  });
});
