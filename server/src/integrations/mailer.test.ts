import { MailConfigError, defaultSmtpUrl, parseSmtpUrl } from "./mailer";

describe("parseSmtpUrl", () => {
  it("defaults to SendGrid's relay with the user apikey, the key as the password", () => {
    expect(defaultSmtpUrl).toBe("smtp://apikey@smtp.sendgrid.net:587");
    expect(parseSmtpUrl(null, "SG.key")).toEqual({
      host: "smtp.sendgrid.net",
      port: 587,
      secure: false,
      user: "apikey",
      password: "SG.key",
    });
    expect(parseSmtpUrl("  ", "SG.key").host).toBe("smtp.sendgrid.net");
  });

  it("reads smtp:// (STARTTLS, port 587 by default) and smtps:// (TLS, port 465 by default) with a user", () => {
    expect(parseSmtpUrl("smtp://postmaster%40example.com@mail.example.com", "pw")).toEqual({
      host: "mail.example.com",
      port: 587,
      secure: false,
      user: "postmaster@example.com",
      password: "pw",
    });
    expect(parseSmtpUrl("smtps://relay@mail.example.com", "pw")).toMatchObject({ port: 465, secure: true, user: "relay" });
    expect(parseSmtpUrl("smtp://u@127.0.0.1:2525", "pw")).toMatchObject({ host: "127.0.0.1", port: 2525 });
  });

  it("refuses what is not an smtp(s) URL, without naming the key", () => {
    for (const url of ["https://api.sendgrid.com", "not a url", "smtp://"]) {
      expect(() => parseSmtpUrl(url, "SG.secret")).toThrow(MailConfigError);
      try {
        parseSmtpUrl(url, "SG.secret");
      } catch (error) {
        expect((error as Error).message).not.toContain("SG.secret");
      }
    }
  });
});
