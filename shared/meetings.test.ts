import { formatAgenda, meetingContentSchema, meetingFormSchema, newMeetingSchema } from "./meetings";

describe("formatAgenda", () => {
  it("numbers the items, puts each description on the next line and a blank line between entries", () => {
    const text = formatAgenda([
      { title: "Call to order", duration: 5, description: "Confirm quorum." },
      { title: "Budget", duration: 30, description: "Approve the 2026 budget." },
      { title: "Close", duration: 5, description: "" },
    ]);
    expect(text).toBe("1. Call to order (5 min)\nConfirm quorum.\n\n2. Budget (30 min)\nApprove the 2026 budget.\n\n3. Close (5 min)");
  });
});

describe("meetingFormSchema", () => {
  it("gives the messages users see", () => {
    const result = meetingFormSchema.safeParse({ title: " ", date: "", time: "", location: "" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["title", "Meeting title is required"],
      ["date", "Date is required"],
      ["time", "Time is required"],
      ["location", "Location is required"],
    ]);
  });
});

describe("meetingContentSchema", () => {
  const valid = {
    type: "meeting",
    title: "Board",
    date: "2026-06-10T14:00:00.000Z",
    endDate: "2026-06-10T16:00:00.000Z",
    location: "HQ",
    status: "pending",
    participants: ["3", 4, "3"],
  };
  it("accepts a meeting, de-duplicating participants and defaulting the agenda", () => {
    const parsed = meetingContentSchema.parse(valid);
    expect(parsed.participants).toEqual([3, 4]);
    expect(parsed.agenda).toBe("");
    expect(parsed.date).toEqual(new Date("2026-06-10T14:00:00.000Z"));
  });
  it("accepts an offset and still requires the end two hours after the start", () => {
    expect(meetingContentSchema.safeParse({ ...valid, date: "2026-06-10T16:00:00+02:00" }).success).toBe(true);
    expect(meetingContentSchema.safeParse({ ...valid, endDate: "2026-06-10T15:00:00.000Z" }).success).toBe(false);
  });
});

describe("the meeting's fields, alike in the form, the content and the draft", () => {
  const start = "2030-01-01T10:00:00.000Z";
  const form = { title: "Board", date: "2030-01-01", time: "10:00", location: "Zoom" };
  const content = {
    type: "meeting",
    title: "Board",
    date: start,
    endDate: "2030-01-01T12:00:00.000Z",
    location: "Zoom",
    status: "pending",
  };
  const draft = { title: "Board", date: start };
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.success ? [] : result.error!.issues.map((issue) => issue.message);

  it("cap the title at 200 characters with one message", () => {
    const long = "x".repeat(201);
    for (const result of [
      meetingFormSchema.safeParse({ ...form, title: long }),
      meetingContentSchema.safeParse({ ...content, title: long }),
      newMeetingSchema.safeParse({ ...draft, title: long }),
    ]) {
      expect(messages(result)).toEqual(["Title must be at most 200 characters"]);
    }
  });

  it("cap the location at 500 characters with one message", () => {
    const long = "x".repeat(501);
    for (const result of [
      meetingFormSchema.safeParse({ ...form, location: long }),
      meetingContentSchema.safeParse({ ...content, location: long }),
      newMeetingSchema.safeParse({ ...draft, location: long }),
    ]) {
      expect(messages(result)).toEqual(["Location must be at most 500 characters"]);
    }
  });

  it("ask for the title: the draft in the words of the agenda button", () => {
    expect(messages(meetingFormSchema.safeParse({ ...form, title: " " }))).toEqual(["Meeting title is required"]);
    expect(messages(meetingContentSchema.safeParse({ ...content, title: " " }))).toEqual(["Meeting title is required"]);
    expect(messages(newMeetingSchema.safeParse({ ...draft, title: " " }))).toEqual(["Please provide a meeting title first"]);
  });
});
