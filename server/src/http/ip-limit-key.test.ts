import { ipLimitKey } from "./ip-limit-key";

describe("ipLimitKey", () => {
  it("counts an IPv6 address as its /64, however it is written", () => {
    const key = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:DB8:1:2:aaaa:bbbb:cccc:dddd",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2:0:0:1.2.3.4",
    ]) {
      expect(ipLimitKey(address)).toBe(key);
    }
    expect(ipLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(ipLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(ipLimitKey("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(ipLimitKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("counts an IPv4 address as itself, whether written plainly or mapped into IPv6", () => {
    expect(ipLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(ipLimitKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("203.0.113.8")).not.toBe(ipLimitKey("203.0.113.7"));
  });

  it("keeps what is not an address as it is", () => {
    expect(ipLimitKey("unknown")).toBe("unknown");
    expect(ipLimitKey("")).toBe("");
  });
});
