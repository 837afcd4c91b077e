import { renderDigest, type DigestCompany, type DigestMessage } from "./mail-digest";

describe("the digest mail", () => {
  const busy: DigestCompany = {
    name: "Busy & Co",
    meetings: [{ id: 4, title: "Board <meeting>", startsAt: "2026-06-03T10:00:00.000Z", location: "Room 1" }],
    openVotes: [{ id: 9, title: "Approve budget", deadline: "2026-06-05T17:00:00.000Z" }],
    newDocuments: [],
  };

  it("renders plain text and escaped HTML with links and an unsubscribe link", () => {
    const message: DigestMessage = { type: "digest", weekOf: "2026-06-01", companies: [busy] };
    const mail = renderDigest(message, {
      appUrl: "https://q.test",
      unsubscribeUrl: (key) => `https://q.test/api/unsubscribe?token=${key}`,
      unsealToken: (sealed) => sealed,
    });
    expect(mail.subject).toBe("Your weekly Quorum digest (week of 2026-06-01)");
    expect(mail.text).toContain("== Busy & Co ==");
    expect(mail.text).toContain("- Board <meeting> — 3 Jun 2026, 10:00 UTC, Room 1\n  https://q.test/meetings/4");
    expect(mail.text).toContain("- Approve budget — voting closes 5 Jun 2026, 17:00 UTC\n  https://q.test/resolutions/9");
    expect(mail.text).toContain("No new documents.");
    expect(mail.text).toContain("Turn it off: https://q.test/api/unsubscribe?token=emailDigest");
    expect(mail.html).toContain("Busy &amp; Co");
    expect(mail.html).toContain("Board &lt;meeting&gt;");
    expect(mail.html).not.toContain("<meeting>");
    expect(mail.html).toContain('<a href="https://q.test/api/unsubscribe?token=emailDigest">Unsubscribe</a>');
  });
});
