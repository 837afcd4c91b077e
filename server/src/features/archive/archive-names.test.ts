import { ArchivePaths, datedPart, safePart, titledPart } from "./archive-paths";
import { csvField, csvLines, jsonLines, neutralised, type Table } from "./archive-tables";

// The archive's file names (safe to unpack anywhere, unique) and its tables (RFC 4180 CSV, formulas neutralised).

describe("names in the archive", () => {
  it("makes any text a safe part of a path: no separators, dot-names, control or bidi characters, bounded", () => {
    expect(safePart("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(safePart("..")).toBe("untitled");
    expect(safePart("  . ")).toBe("untitled");
    expect(safePart("C:\\Windows\\system32")).toBe("C__Windows_system32");
    expect(safePart("report\u202efdp.exe")).toBe("report_fdp.exe");
    expect(safePart("line\nbreak\ttab\u0000nul")).toBe("line_break_tab_nul");
    expect(safePart('a<b>c:d"e|f?g*h')).toBe("a_b_c_d_e_f_g_h");
    expect(safePart("Board   papers. ")).toBe("Board papers");
    const long = safePart(`${"é".repeat(200)}.pdf`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(120);
    expect(long.endsWith("é.pdf")).toBe(true);
    expect(safePart("a".repeat(300))).toBe("a".repeat(120));
  });

  it("names meetings and papers by title and id", () => {
    expect(datedPart(new Date("2026-06-10T10:00:00Z"), "Q3 / Board", 12)).toBe("2026-06-10 Q3 _ Board (12)");
    expect(titledPart("Budget 2026.pdf", 4)).toBe("Budget 2026 (4)");
    expect(titledPart("x".repeat(500), 987654321).endsWith(" (987654321)")).toBe(true);
  });

  it("hands out each path once, a second of the same name (in any case) numbered", () => {
    const paths = new ArchivePaths();
    expect(paths.claim("papers", "Library", "Budget.pdf")).toBe("papers/Library/Budget.pdf");
    expect(paths.claim("papers", "Library", "budget.PDF")).toBe("papers/Library/budget (2).PDF");
    expect(paths.claim("papers", "Library", "Budget.pdf")).toBe("papers/Library/Budget (3).pdf");
    expect(paths.claim("papers", "..", "/etc/passwd")).toBe("papers/untitled/_etc_passwd");
  });
});

describe("tables in the archive", () => {
  it("quotes CSV fields as RFC 4180 has it, and leads formula cells with an apostrophe", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then\r\nleave')).toBe('"say ""hi"", then\r\nleave"');
    expect(csvField(null)).toBe("");
    expect(csvField(-5)).toBe("-5");
    expect(csvField(true)).toBe("true");
    for (const formula of ["=1+2", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"]) expect(neutralised(formula)).toBe(`'${formula}`);
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
  });

  it("writes the same rows as CSV (CRLF, header first) and as JSON (the values as they are)", () => {
    const table: Table = { columns: ["id", "title"], rows: [{ id: 1, title: "=cmd", extra: "dropped" }, { id: 2 }] };
    expect([...csvLines(table)].join("")).toBe("id,title\r\n1,'=cmd\r\n2,\r\n");
    expect(JSON.parse([...jsonLines(table)].join(""))).toEqual([
      { id: 1, title: "=cmd" },
      { id: 2, title: null },
    ]);
    expect([...jsonLines({ columns: ["id"], rows: [] })].join("")).toBe("[]\n");
  });
});
