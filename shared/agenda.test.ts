import { agendaInputSchema, agendaLimits, formatAgendaItems, meetingUpdateSchema, parseAgendaText, type ParsedAgendaItem } from "./agenda";
import { maxAgendaLength } from "./meeting-fields";
import { meetingFormSchema } from "./meetings";

const items = (count: number, described: boolean): ParsedAgendaItem[] =>
  Array.from({ length: count }, (_, index) => ({
    title: `Item ${index + 1}: review (part ${index})`,
    durationMinutes: 5 + index * 40,
    description: described ? `What item ${index + 1} covers\nand a second line` : "",
  }));

describe("parseAgendaText", () => {
  it.each([
    [1, false],
    [1, true],
    [12, false],
    [12, true],
  ])("reads back the numbered list of %i item(s) formatAgendaItems writes (descriptions: %s)", (count, described) => {
    const written = items(count, described);
    expect(parseAgendaText(formatAgendaItems(written), 120)).toEqual(written);
  });

  it("reads back the longest title and description an item may have", () => {
    const written = [
      {
        title: "t".repeat(agendaLimits.title),
        durationMinutes: agendaLimits.maxMinutes,
        description: "d".repeat(agendaLimits.description),
      },
    ];
    expect(parseAgendaText(formatAgendaItems(written), 120)).toEqual(written);
  });

  it("makes one item of free text: its first line the title, the rest the description, the fallback its length", () => {
    expect(parseAgendaText("  Discuss the merger\r\nBring the term sheet\n\nAnd the model  ", 120)).toEqual([
      { title: "Discuss the merger", durationMinutes: 120, description: "Bring the term sheet\n\nAnd the model" },
    ]);
  });

  it("makes nothing of blank text", () => {
    expect(parseAgendaText("", 120)).toEqual([]);
    expect(parseAgendaText(" \n\n \t", 120)).toEqual([]);
  });

  it("makes one item of a list numbered out of order, or one whose items break the limits", () => {
    const outOfOrder = "1. Call to order (5 min)\n\n3. Budget (30 min)";
    expect(parseAgendaText(outOfOrder, 60)).toEqual([
      { title: "1. Call to order (5 min)", durationMinutes: 60, description: "3. Budget (30 min)" },
    ]);
    expect(parseAgendaText("1. Marathon (481 min)", 60)).toEqual([
      { title: "1. Marathon (481 min)", durationMinutes: 60, description: "" },
    ]);
    const tooMany = formatAgendaItems(
      Array.from({ length: agendaLimits.items + 1 }, () => ({ title: "Item", durationMinutes: 5, description: "" })),
    );
    expect(parseAgendaText(tooMany, 60)).toHaveLength(1);
  });

  it("clips an over-long title and description, and keeps the fallback length within the limits", () => {
    const [item] = parseAgendaText(`${"T".repeat(300)}\n${"D".repeat(3000)}`, 1000);
    expect(item!.title).toHaveLength(agendaLimits.title);
    expect(item!.title.endsWith("…")).toBe(true);
    expect(item!.description).toHaveLength(agendaLimits.description);
    expect(item!.description.endsWith("…")).toBe(true);
    expect(item!.durationMinutes).toBe(agendaLimits.maxMinutes);
    expect(parseAgendaText("Short", 0)[0]!.durationMinutes).toBe(agendaLimits.minMinutes);
  });
});

describe("agendaInputSchema", () => {
  const paths = (input: unknown) => {
    const result = agendaInputSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  };

  it("accepts a plain agenda and fills in the defaults", () => {
    expect(agendaInputSchema.parse({ items: [{ title: " Budget ", durationMinutes: 30 }] })).toEqual({
      items: [{ title: "Budget", durationMinutes: 30, description: "", purpose: "discussion", documentIds: [], resolutionIds: [] }],
    });
  });

  it("refuses an item named twice", () => {
    const item = { id: 7, title: "Budget", durationMinutes: 30 };
    expect(paths({ items: [item, { ...item, title: "Again" }] })).toEqual([["items.1.id", "An item is named twice"]]);
  });

  it("refuses the same paper or resolution twice on one item, but not on two", () => {
    const item = { title: "Budget", durationMinutes: 30 };
    expect(paths({ items: [{ ...item, documentIds: [3, 4, 3] }] })).toEqual([
      ["items.0.documentIds", "An item lists the same attachment twice"],
    ]);
    expect(paths({ items: [{ ...item, resolutionIds: [5, 5] }] })).toEqual([
      ["items.0.resolutionIds", "An item lists the same attachment twice"],
    ]);
    expect(
      paths({
        items: [
          { ...item, documentIds: [3] },
          { ...item, documentIds: [3] },
        ],
      }),
    ).toEqual([]);
  });

  it("takes items whose agenda text is 20,000 characters, the most a typed agenda may be, and refuses one more", () => {
    expect(agendaLimits.text).toBe(maxAgendaLength);
    const full = Array.from({ length: 10 }, () => ({
      title: "Item",
      durationMinutes: 5,
      description: "d".repeat(agendaLimits.description),
    }));
    const over = formatAgendaItems(full).length - agendaLimits.text;
    const last = full[9]!;
    const exact = [...full.slice(0, 9), { ...last, description: last.description.slice(over) }];
    expect(formatAgendaItems(exact)).toHaveLength(agendaLimits.text);
    expect(paths({ items: exact })).toEqual([]);
    const oneMore = [...full.slice(0, 9), { ...last, description: last.description.slice(over - 1) }];
    expect(paths({ items: oneMore })).toEqual([["items", "The agenda is too long: at most 20,000 characters in all"]]);
    // The typed agenda's own limit is the same number.
    expect(
      meetingFormSchema.safeParse({ title: "T", date: "2026-06-01", time: "10:00", location: "Room", agenda: "a".repeat(maxAgendaLength) })
        .success,
    ).toBe(true);
    expect(
      meetingFormSchema.safeParse({
        title: "T",
        date: "2026-06-01",
        time: "10:00",
        location: "Room",
        agenda: "a".repeat(maxAgendaLength + 1),
      }).success,
    ).toBe(false);
  });

  it("refuses an item title with a line break or a tab, but trims one at either end", () => {
    for (const title of ["Budget\nreview", "Budget\r\nreview", "Budget\treview"]) {
      expect(paths({ items: [{ title, durationMinutes: 5 }] })).toEqual([["items.0.title", "Must be a single line"]]);
    }
    expect(agendaInputSchema.parse({ items: [{ title: "\nBudget\n", durationMinutes: 5 }] }).items[0]!.title).toBe("Budget");
  });
});

describe("meetingUpdateSchema", () => {
  it("refuses a title or a location over two lines, and a title over 200 characters", () => {
    const issues = (body: unknown) => {
      const result = meetingUpdateSchema.safeParse(body);
      return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(issues({ title: "Board\nmeeting", location: "Room 1\nRoom 2" })).toEqual([
      ["location", "Must be a single line"],
      ["title", "Must be a single line"],
    ]);
    expect(issues({ title: "x".repeat(201) })).toEqual([["title", "Title must be at most 200 characters"]]);
    expect(issues({ title: "Board meeting", location: "Room 1" })).toEqual([]);
  });
});
