import { SecretDecryptionError, decryptSecret, encryptSecret, maskSecret } from "./secrets";

const secret = "a".repeat(40);

describe("service key encryption", () => {
  it("round-trips and uses a fresh IV per write", () => {
    const first = encryptSecret("sk-live-1234567890", secret);
    const second = encryptSecret("sk-live-1234567890", secret);
    expect(first).not.toBe(second);
    expect(first).not.toContain("sk-live");
    expect(decryptSecret(first, secret)).toBe("sk-live-1234567890");
  });

  it("fails with a clear error under another APP_SECRET instead of returning garbage", () => {
    const stored = encryptSecret("sk-live-1234567890", secret);
    expect(() => decryptSecret(stored, "b".repeat(40))).toThrow(SecretDecryptionError);
    expect(() => decryptSecret("garbage", secret)).toThrow(/APP_SECRET/);
  });

  it("masks to 8 characters and an ellipsis, fewer for short keys", () => {
    expect(maskSecret("sk-abcdefghijklmnop")).toBe("sk-abcde…");
    expect(maskSecret("short")).toBe("s…");
    expect(maskSecret("")).toBe("…");
  });
});
