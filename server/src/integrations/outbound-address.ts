import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { Agent } from "undici";

/**
 * Where the server may connect when it calls a configured service (AI, SMTP, object storage). A platform admin's
 * URL must not turn the server into a way into its own network: a service URL is `https://` and every address it
 * connects to is a public one, checked after DNS resolution on the very socket that connects (so a name that
 * resolves elsewhere the second time gains nothing). Hosts listed in OUTBOUND_ALLOWED_HOSTS (a local AI server,
 * a relay on the same machine) may use `http://` and private addresses.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Turns a host name into its addresses; the system's resolver unless a test injects one. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** OUTBOUND_ALLOWED_HOSTS: "host" (any port) or "host:port" ("[::1]:8080" for IPv6). */
  allowedHosts: readonly string[];
  resolve: Resolver;
  /**
   * Whether an address is inside (private, loopback, link-local, ...). Only tests replace it, to reach a server of
   * their own on 127.0.0.1 as though it were outside (and so prove what happens to a host that is not allow-listed).
   */
  isInside?: (address: string) => boolean;
}

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export const defaultOutboundPolicy: OutboundPolicy = { allowedHosts: [], resolve: systemResolver };

/** Refused before any connection; its message names the rule, never a key. */
export class OutboundAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundAddressError";
  }
}

const inside = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, where cloud metadata services answer
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  inside.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96], // NAT64: an IPv4 address inside
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: an IPv4 address inside
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  inside.addSubnet(network, prefix, "ipv6");
}

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d or ::ffff:7f00:1), as the IPv4 address; otherwise null. */
function embeddedIpv4(address: string): string | null {
  const dotted = /^::ffff:(?:0{1,4}:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:(?:0{1,4}:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an IP address is one the server must not reach for a service that is not allow-listed. */
export function isInsideAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = embeddedIpv4(bare);
  if (mapped) return isInsideAddress(mapped);
  const family = isIP(bare);
  if (family === 4) return inside.check(bare, "ipv4");
  if (family === 6) return inside.check(bare, "ipv6");
  // Not an address at all: nothing to connect to.
  return true;
}

const bareHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");

/** Whether host:port is listed ("host" lists every port of it). */
export function isAllowListed(policy: OutboundPolicy, hostname: string, port: number): boolean {
  const host = bareHost(hostname);
  return policy.allowedHosts.some((entry) => {
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (withPort) return bareHost(withPort[1]!) === host && Number(withPort[2]) === port;
    return bareHost(entry) === host;
  });
}

/** Where a service connects, and whether it may reach private addresses (allow-listed). */
export interface OutboundTarget {
  hostname: string;
  port: number;
  allowListed: boolean;
}

const defaultPorts: Record<string, number> = { "https:": 443, "http:": 80, "smtp:": 587, "smtps:": 465 };

function addressIsInside(policy: OutboundPolicy, address: string): boolean {
  return (policy.isInside ?? isInsideAddress)(address);
}

/** A host given as an address is checked here: clients do not call a lookup for one. */
export function checkTarget(policy: OutboundPolicy, hostname: string, port: number): OutboundTarget {
  const host = bareHost(hostname);
  if (!host) throw new OutboundAddressError("The service URL has no host");
  const allowListed = isAllowListed(policy, host, port);
  if (!allowListed && isIP(host) !== 0 && addressIsInside(policy, host)) {
    throw new OutboundAddressError("The service URL points to a private or local address; only hosts listed in OUTBOUND_ALLOWED_HOSTS may");
  }
  return { hostname: host, port, allowListed };
}

/**
 * Checks an http(s) service URL before anything connects: `https://` unless its host is allow-listed, and no
 * private address written into it. Throws OutboundAddressError with a message fit for the admin who typed it.
 */
export function checkHttpServiceUrl(policy: OutboundPolicy, url: string | URL): OutboundTarget {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new OutboundAddressError("The service URL is not a valid URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new OutboundAddressError("The service URL must start with https://");
  }
  const port = parsed.port ? Number(parsed.port) : defaultPorts[parsed.protocol]!;
  const target = checkTarget(policy, parsed.hostname, port);
  if (parsed.protocol === "http:" && !target.allowListed) {
    throw new OutboundAddressError("The service URL must start with https:// (http:// only for hosts listed in OUTBOUND_ALLOWED_HOSTS)");
  }
  return target;
}

/** Resolves a name with the policy's resolver and refuses it when any of its addresses is inside (unless allowed). */
export async function resolveChecked(policy: OutboundPolicy, hostname: string, allowInside: boolean): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await policy.resolve(host);
  if (addresses.length === 0) throw new OutboundAddressError(`${host} has no address`);
  if (!allowInside && addresses.some((entry) => addressIsInside(policy, entry.address))) {
    throw new OutboundAddressError(`${host} resolves to a private or local address; only hosts listed in OUTBOUND_ALLOWED_HOSTS may`);
  }
  return addresses;
}

/**
 * A socket `lookup` that resolves, then refuses inside addresses unless `allowInside`: the address the socket
 * connects to is the one checked here.
 */
export function guardedLookup(policy: OutboundPolicy, allowInside: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(policy, hostname, allowInside).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((entry) => entry.family === family);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: "ENOTFOUND" }), "", 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (error: Error) => callback(error, "", 0),
    );
  };
}

/**
 * A fetch for one service origin: the URL is checked before each request, the connection's addresses at connect
 * time, and redirects are never followed (a 3xx reaches the caller as an answer), so a service cannot send the
 * request, its key with it, on to an address inside. `close` ends the connections it kept.
 */
export function guardedFetch(policy: OutboundPolicy, baseUrl: string): { fetch: typeof fetch; close: () => Promise<void> } {
  const origin = checkHttpServiceUrl(policy, baseUrl);
  // undici is loaded at the first request, not at start-up (about a tenth of a second of CPU).
  let dispatcher: Promise<Agent> | undefined;
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = checkHttpServiceUrl(policy, url);
    if (target.hostname !== origin.hostname || target.port !== origin.port) {
      throw new OutboundAddressError("A request left the service's own address");
    }
    dispatcher ??= import("undici").then(({ Agent }) => new Agent({ connect: { lookup: guardedLookup(policy, origin.allowListed) } }));
    // Read at call time: tests that intercept fetch in-process replace the global one.
    // Node's fetch takes an undici dispatcher; its bundled typings name another copy of the same interface.
    return globalThis.fetch(input, { ...init, redirect: "manual", dispatcher: await dispatcher } as unknown as RequestInit);
  };
  return {
    fetch: guarded as typeof fetch,
    close: async () => {
      if (dispatcher) await (await dispatcher).close();
    },
  };
}

/** Node http(s) agents whose sockets connect only to checked addresses (for clients built on node:http). */
export function guardedAgents(policy: OutboundPolicy, target: OutboundTarget): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const lookup = guardedLookup(policy, target.allowListed);
  return { httpAgent: new http.Agent({ lookup, keepAlive: true }), httpsAgent: new https.Agent({ lookup, keepAlive: true }) };
}
