import { createResolutionSchema, decideOutcome, quorumRequired, resolutionTab, type OutcomeInput } from "./resolutions";

const base = (overrides: Partial<OutcomeInput>): OutcomeInput => ({
  type: "Ordinary",
  tally: { yes: 0, no: 0, abstain: 0 },
  eligible: 5,
  recused: 0,
  deadlinePassed: false,
  quorumPercent: null,
  ...overrides,
});
const outcomeOf = (overrides: Partial<OutcomeInput>) => {
  const result = decideOutcome(base(overrides));
  return result.decided ? result.outcome : "pending";
};

describe("decideOutcome: when it is decided", () => {
  it("stays pending while some eligible voter has not voted and the deadline has not passed", () => {
    expect(outcomeOf({ tally: { yes: 4, no: 0, abstain: 0 } })).toBe("pending");
  });
  it("is decided as soon as every eligible voter has voted", () => {
    expect(outcomeOf({ tally: { yes: 3, no: 1, abstain: 1 } })).toBe("approved");
  });
  it("stays pending (expired) at the deadline when no vote was cast, whatever the type", () => {
    for (const type of ["Ordinary", "Special", "Unanimous"] as const) {
      expect(outcomeOf({ type, deadlinePassed: true })).toBe("pending");
    }
  });
  it("is decided at the deadline once at least one vote was cast", () => {
    expect(outcomeOf({ tally: { yes: 3, no: 0, abstain: 0 }, deadlinePassed: true })).toBe("approved");
  });
  it("is never decided early when nobody is eligible", () => {
    expect(outcomeOf({ eligible: 0, recused: 2 })).toBe("pending");
  });
});

describe("decideOutcome: Ordinary", () => {
  it("approves with more yes than no, abstentions aside", () => {
    expect(outcomeOf({ tally: { yes: 2, no: 1, abstain: 2 } })).toBe("approved");
  });
  it("rejects a tie", () => {
    expect(outcomeOf({ eligible: 4, tally: { yes: 2, no: 2, abstain: 0 } })).toBe("rejected");
    expect(outcomeOf({ eligible: 4, tally: { yes: 0, no: 0, abstain: 4 } })).toBe("rejected");
  });
  it("rejects more no than yes", () => {
    expect(outcomeOf({ tally: { yes: 1, no: 2, abstain: 2 } })).toBe("rejected");
  });
});

describe("decideOutcome: Special", () => {
  it("approves at exactly 75% of the yes and no votes", () => {
    expect(outcomeOf({ type: "Special", eligible: 4, tally: { yes: 3, no: 1, abstain: 0 } })).toBe("approved");
  });
  it("rejects just below 75%", () => {
    // 5 of 7 is 71%.
    expect(outcomeOf({ type: "Special", eligible: 7, tally: { yes: 5, no: 2, abstain: 0 } })).toBe("rejected");
    // 74 of 100.
    expect(outcomeOf({ type: "Special", eligible: 100, tally: { yes: 74, no: 26, abstain: 0 } })).toBe("rejected");
  });
  it("does not count abstentions", () => {
    // 3 yes, 1 no, 4 abstain: 75% of yes and no, though only 37.5% of all votes.
    expect(outcomeOf({ type: "Special", eligible: 8, tally: { yes: 3, no: 1, abstain: 4 } })).toBe("approved");
  });
  it("needs at least one yes", () => {
    expect(outcomeOf({ type: "Special", eligible: 3, tally: { yes: 0, no: 0, abstain: 3 } })).toBe("rejected");
  });
  it("explains the count, the rule and the quorum", () => {
    const result = decideOutcome(
      base({ type: "Special", eligible: 6, recused: 1, tally: { yes: 3, no: 1, abstain: 1 }, deadlinePassed: true }),
    );
    expect(result).toMatchObject({
      decided: true,
      outcome: "approved",
      explanation:
        "Approved: 3 yes, 1 no, 1 abstain of 6 eligible (1 recused); a Special resolution needs at least 75% of the yes and no votes; quorum 4 of 6 met",
      quorum: { required: 4, present: 5, met: true },
    });
  });
});

describe("decideOutcome: Unanimous", () => {
  it("approves when every eligible voter said yes", () => {
    expect(outcomeOf({ type: "Unanimous", tally: { yes: 5, no: 0, abstain: 0 } })).toBe("approved");
  });
  it("rejects when all voted and one said no", () => {
    expect(outcomeOf({ type: "Unanimous", tally: { yes: 4, no: 1, abstain: 0 } })).toBe("rejected");
  });
  it("rejects when one abstained", () => {
    expect(outcomeOf({ type: "Unanimous", tally: { yes: 4, no: 0, abstain: 1 } })).toBe("rejected");
  });
  it("rejects at the deadline when someone never voted, even if all who voted said yes", () => {
    expect(outcomeOf({ type: "Unanimous", tally: { yes: 4, no: 0, abstain: 0 }, deadlinePassed: true })).toBe("rejected");
  });
  it("needs only the non-recused voters", () => {
    // Five board members, one recused: four yes is unanimous.
    expect(outcomeOf({ type: "Unanimous", eligible: 4, recused: 1, tally: { yes: 4, no: 0, abstain: 0 } })).toBe("approved");
  });
});

describe("decideOutcome: quorum", () => {
  it("defaults to more than half of the eligible voters", () => {
    expect(quorumRequired(6, null)).toBe(4);
    expect(quorumRequired(5, null)).toBe(3);
    expect(quorumRequired(1, null)).toBe(1);
    expect(quorumRequired(0, null)).toBe(1);
  });
  it("takes a company's percentage, rounded up", () => {
    expect(quorumRequired(6, 50)).toBe(3);
    expect(quorumRequired(7, 50)).toBe(4);
    expect(quorumRequired(4, 100)).toBe(4);
  });
  it("rejects an Ordinary or Special resolution at the deadline without quorum, explained as no quorum", () => {
    for (const type of ["Ordinary", "Special"] as const) {
      const result = decideOutcome(base({ type, eligible: 6, tally: { yes: 3, no: 0, abstain: 0 }, deadlinePassed: true }));
      expect(result).toMatchObject({ decided: true, outcome: "rejected", quorum: { required: 4, present: 3, met: false } });
      if (result.decided) expect(result.explanation).toContain("no quorum");
    }
  });
  it("counts abstentions towards quorum", () => {
    expect(outcomeOf({ eligible: 6, tally: { yes: 2, no: 1, abstain: 1 }, deadlinePassed: true })).toBe("approved");
  });
  it("counts without the recused", () => {
    // Six board members, two recused: 4 eligible, quorum 3.
    expect(outcomeOf({ eligible: 4, recused: 2, tally: { yes: 3, no: 0, abstain: 0 }, deadlinePassed: true })).toBe("approved");
  });
  it("is always met when everyone voted, even under a 100% rule with one vote short only of the recused", () => {
    expect(outcomeOf({ eligible: 3, recused: 1, quorumPercent: 100, tally: { yes: 2, no: 1, abstain: 0 } })).toBe("approved");
  });
  it("uses the company's percentage at the deadline", () => {
    expect(outcomeOf({ eligible: 10, quorumPercent: 30, tally: { yes: 3, no: 0, abstain: 0 }, deadlinePassed: true })).toBe("approved");
    expect(outcomeOf({ eligible: 10, quorumPercent: 40, tally: { yes: 3, no: 0, abstain: 0 }, deadlinePassed: true })).toBe("rejected");
  });
});

describe("resolutionTab", () => {
  const deadline = "2026-06-01T23:59:59.999Z";
  it("is pending until the deadline and expired from it", () => {
    expect(resolutionTab({ status: "pending", deadline }, new Date("2026-06-01T23:59:59.998Z"))).toBe("pending");
    expect(resolutionTab({ status: "pending", deadline }, new Date(deadline))).toBe("expired");
  });
  it("puts decided resolutions under completed", () => {
    expect(resolutionTab({ status: "approved", deadline }, new Date("2020-01-01"))).toBe("completed");
    expect(resolutionTab({ status: "rejected", deadline }, new Date("2030-01-01"))).toBe("completed");
  });
});

describe("createResolutionSchema", () => {
  const valid = {
    title: " Approve budget ",
    description: "FY27",
    type: "Special",
    deadline: "2026-07-01T23:59:59.999Z",
    documentIds: [3, "3", 4],
  };
  it("trims, parses the deadline and de-duplicates documents", () => {
    const parsed = createResolutionSchema.parse(valid);
    expect(parsed.title).toBe("Approve budget");
    expect(parsed.deadline).toBeInstanceOf(Date);
    expect(parsed.documentIds).toEqual([3, 4]);
  });
  it("refuses an unknown type, a blank title and a deadline without an offset", () => {
    expect(createResolutionSchema.safeParse({ ...valid, type: "Extraordinary" }).success).toBe(false);
    expect(createResolutionSchema.safeParse({ ...valid, title: "  " }).success).toBe(false);
    expect(createResolutionSchema.safeParse({ ...valid, deadline: "2026-07-01T23:59:59" }).success).toBe(false);
  });
});
