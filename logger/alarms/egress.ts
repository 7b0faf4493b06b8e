import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Where notifications may go. A notification target is a host and port the logger connects
// to; without a rule, anyone who may set one could make the logger probe its own network
// (SSRF). So addresses in loopback, link-local, private and other special ranges are refused —
// judged on the address actually connected to, after DNS — unless the allow-list
// (NOTIFY_ALLOW: host names, addresses, CIDR ranges) names them.

/** Ranges no notification goes to unless allow-listed (IPv4, IPv6, and IPv4 inside IPv6 via toIPv4). */
const SPECIAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  // Documentation (TEST-NET-1..3) and the old 6to4 relay: not globally reachable (IANA), so a
  // machine using one of them as its own address must not be probed through it either.
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  SPECIAL.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed by some)
  ["ff00::", 8], // multicast
  ["100::", 64], // discard
  ["64:ff9b:1::", 48], // local-use NAT64 (carries an IPv4 address of the local network)
  ["2001::", 32], // Teredo (carries an IPv4 address)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (carries an IPv4 address)
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 segment identifiers
] as const) {
  SPECIAL.addSubnet(net, prefix, "ipv6");
}

/** The 8 hextets of an IPv6 address (any notation, dotted IPv4 tail included). */
function hextets(address: string): number[] {
  let text = address.replace(/%.*$/, "").toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((h) => Number.parseInt(h || "0", 16));
}

/**
 * The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible
 * ::a.b.c.d, NAT64 64:ff9b::a.b.c.d), or null.
 */
export function embeddedIPv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const h = hextets(address);
  const mapped = h.slice(0, 5).every((x) => x === 0) && (h[5] === 0xffff || (h[5] === 0 && (h[6] !== 0 || h[7]! > 1)));
  const nat64 = h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  return [h[6]! >> 8, h[6]! & 0xff, h[7]! >> 8, h[7]! & 0xff].join(".");
}

/** Whether an address lies in a loopback, link-local, private or otherwise special range. */
export function isSpecialAddress(address: string): boolean {
  const v4 = isIP(address) === 4 ? address : embeddedIPv4(address);
  if (v4) return SPECIAL.check(v4, "ipv4");
  if (isIP(address) !== 6) return true;
  return SPECIAL.check(address.replace(/%.*$/, ""), "ipv6");
}

export interface AllowList {
  /** Lower-case host names that may be special addresses (exact names). */
  hosts: Set<string>;
  /** Addresses and ranges that may be used. */
  addresses: BlockList;
  /** The entries as given (for messages and the API). */
  entries: string[];
}

/** NOTIFY_ALLOW: comma- or space-separated host names, addresses and CIDR ranges. */
export function parseAllowList(text: string | string[] | undefined): AllowList {
  const entries = (Array.isArray(text) ? text : (text ?? "").split(/[\s,]+/)).map((e) => e.trim()).filter(Boolean);
  const list: AllowList = { hosts: new Set(), addresses: new BlockList(), entries };
  for (const entry of entries) {
    const [net, prefix] = entry.split("/") as [string, string | undefined];
    const bare = net.replace(/^\[|\]$/g, "");
    const family = isIP(bare);
    if (family) {
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefix === undefined) list.addresses.addAddress(bare, type);
      else {
        const bits = Number(prefix);
        if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) throw new Error(`NOTIFY_ALLOW: ${entry} is no address range`);
        list.addresses.addSubnet(bare, bits, type);
      }
      // An allowed IPv4 address is allowed in its IPv6-mapped form too (and the other way).
    } else if (/^[a-z0-9.-]+$/i.test(entry)) list.hosts.add(entry.toLowerCase().replace(/\.$/, ""));
    else throw new Error(`NOTIFY_ALLOW: ${entry} is no host name, address or range`);
  }
  return list;
}

function allowedAddress(list: AllowList, address: string): boolean {
  const v4 = isIP(address) === 4 ? address : embeddedIPv4(address);
  if (v4 && list.addresses.check(v4, "ipv4")) return true;
  return isIP(address) === 6 && list.addresses.check(address.replace(/%.*$/, ""), "ipv6");
}

/** Whether the allow-list names this host (by name, or as an address it covers). */
export function hostAllowListed(list: AllowList, host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  return list.hosts.has(bare) || (isIP(bare) !== 0 && allowedAddress(list, bare));
}

/** A delivery refused because of where it would go; its text is for the trace log only. */
export class EgressRefused extends Error {}

/**
 * The addresses a notification to `host` may connect to, resolved now: every address must be
 * public, or allow-listed (by the host's name, or by address). Connecting to exactly these
 * (not resolving again) leaves no gap for DNS to answer differently in between.
 */
export async function resolveAllowed(list: AllowList, host: string): Promise<{ address: string; family: number }[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  if (addresses.length === 0) throw new EgressRefused(`${host} has no address`);
  const byName = list.hosts.has(bare.toLowerCase().replace(/\.$/, ""));
  for (const { address } of addresses) {
    if (isSpecialAddress(address) && !byName && !allowedAddress(list, address)) {
      throw new EgressRefused(`${host} is ${address}, a loopback, link-local or private address that NOTIFY_ALLOW does not list`);
    }
  }
  return addresses;
}
