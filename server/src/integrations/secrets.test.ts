import { SecretDecryptionError, decryptSecret, encryptSecret, maskSecret, sealFor, unsealFor } from "./secrets";

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

describe("sealing for one person", () => {
  it("opens only under the same purpose, subject and APP_SECRET", () => {
    const sealed = sealFor("paper note", 7, secret, "Ask about capex");
    expect(sealed).not.toContain("capex");
    expect(sealFor("paper note", 7, secret, "Ask about capex")).not.toBe(sealed);
    expect(unsealFor("paper note", 7, secret, sealed)).toBe("Ask about capex");
    expect(() => unsealFor("paper note", 8, secret, sealed)).toThrow(SecretDecryptionError);
    expect(() => unsealFor("other purpose", 7, secret, sealed)).toThrow(SecretDecryptionError);
    expect(() => unsealFor("paper note", 7, "b".repeat(40), sealed)).toThrow(/A sealed paper note could not be decrypted/);
    // Nor is it a service key.
    expect(() => decryptSecret(sealed, secret)).toThrow(SecretDecryptionError);
  });
});
