import { isIPv4, isIPv6 } from "node:net";

/**
 * The key a client's IP address is counted under, for every limit kept per IP (registrations, password resets, the
 * confirmation mails of a registration, failed sign-ins). An IPv6 address counts as its /64: one subscriber is
 * usually given a whole /64, and counting each of its 2^64 addresses apart would let one client spend a per-IP limit
 * without end. An IPv4 address, written plainly or mapped into IPv6 (`::ffff:203.0.113.7`, as a dual-stack socket
 * reports it), counts as itself. Anything else (no address known) is kept as it is.
 */
export function ipLimitKey(ip: string): string {
  const address = ip.trim();
  if (isIPv4(address)) return address;
  // A zone (`fe80::1%eth0`) names the local interface, not the client.
  const unzoned = address.split("%")[0]!;
  if (!isIPv6(unzoned)) return address;
  const groups = ipv6Groups(unzoned);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part read as two groups). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string): number[] => {
    if (part === "") return [];
    return part.split(":").flatMap((piece) => {
      if (!piece.includes(".")) return [parseInt(piece, 16)];
      const [a, b, c, d] = piece.split(".").map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = "", tail] = address.split("::");
  if (tail === undefined) return toGroups(head);
  const before = toGroups(head);
  const after = toGroups(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}
