/**
 * SSRF policy for outbound webhooks: which IP addresses the sender may open a socket to.
 *
 * The input is an IP literal as Node's `net`/`dns` produce it (dotted-quad IPv4, or any textual
 * IPv6 form including `::ffff:127.0.0.1` / `::ffff:7f00:1`). Host names are NOT accepted here:
 * the sender resolves them first and checks every address (see send.ts).
 *
 * IPv4: refuse everything that is not plain public unicast (IANA special-purpose registry).
 * IPv6: allow only global unicast 2000::/3 minus its special-purpose blocks; everything outside
 * 2000::/3 is refused (that covers ::, ::1, ULA, link-local, site-local, multicast, NAT64, ...),
 * and addresses that embed an IPv4 address are judged by that address or refused outright.
 *
 * Uses only node:net (BlockList, isIP).
 */
import { BlockList, isIP } from 'node:net';

/** Thrown (or passed to a lookup callback) when a target address is refused. Never carries secrets. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_BLOCKED_TARGET';
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`blocked target ${address}: ${reason}`);
    this.name = 'BlockedTargetError';
  }
}

type Rule = { reason: string; list: BlockList };

function rules(family: 'ipv4' | 'ipv6', entries: Array<[cidr: string, reason: string, note?: string]>): Rule[] {
  return entries.map(([cidr, reason, note]) => {
    const [net, prefix] = cidr.split('/') as [string, string];
    const list = new BlockList();
    list.addSubnet(net, Number(prefix), family);
    // One pair of parentheses, for the block; a note follows as a clause, never nested inside:
    // `link-local (169.254.0.0/16), which includes cloud metadata 169.254.169.254`.
    return { reason: `${reason} (${cidr})${note ? `, ${note}` : ''}`, list };
  });
}

const LOOPBACK_V4 = rules('ipv4', [['127.0.0.0/8', 'loopback']]);

const V4 = rules('ipv4', [
  // 0.0.0.0 is special: on Linux, connect() to it reaches the local host.
  ['0.0.0.0/8', 'unspecified', 'the "this network" block'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT shared address space'],
  ['169.254.0.0/16', 'link-local', 'which includes cloud metadata 169.254.169.254'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation TEST-NET-1'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation TEST-NET-2'],
  ['203.0.113.0/24', 'documentation TEST-NET-3'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved', 'which includes broadcast 255.255.255.255'],
]);

const V6 = rules('ipv6', [
  // Checked before the "outside 2000::/3" fallback so the reason is specific.
  ['::/128', 'unspecified'],
  ['64:ff9b::/96', 'NAT64', 'which embeds an IPv4 address the gateway would reach'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['fc00::/7', 'unique local', 'which is private address space'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'deprecated site-local'],
  ['ff00::/8', 'multicast'],
  // Inside 2000::/3:
  // 2001::/23 holds Teredo (2001::/32, embeds an obfuscated IPv4 + relays), ORCHID, AMT,
  // AS112 and other protocol assignments: nothing a webhook receiver should live on.
  ['2001::/23', 'IETF protocol assignments', 'which include Teredo 2001::/32'],
  ['2001:db8::/32', 'documentation'],
  // 6to4 (RFC 3056, deprecated by RFC 7526): 2002:AABB:CCDD::/48 embeds IPv4 AA.BB.CC.DD and is
  // reached through whatever 6to4 relay/gateway the network has, which may forward into a private
  // IPv4. We refuse the whole block rather than judge the embedded address: public relays are
  // gone, no legitimate receiver needs it, and refusing is the conservative choice.
  ['2002::/16', '6to4', 'which embeds an IPv4 address and is refused as a whole'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'SRv6 SIDs'],
]);

const GLOBAL_UNICAST_V6 = rules('ipv6', [['2000::/3', 'global unicast']])[0]!.list;

/** Parse an IPv6 literal (already validated by isIP) into 8 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  // Trailing dotted quad (::ffff:1.2.3.4, ::1.2.3.4, 64:ff9b::1.2.3.4) -> two hex groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const gap = text.indexOf('::');
  if (gap === -1) return parse(text);
  const head = parse(text.slice(0, gap));
  const rest = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

function v4Reason(ip: string, allowLoopback: boolean): string | undefined {
  if (!allowLoopback) {
    for (const r of LOOPBACK_V4) if (r.list.check(ip, 'ipv4')) return r.reason;
  }
  for (const r of V4) if (r.list.check(ip, 'ipv4')) return r.reason;
  return undefined;
}

/**
 * Why `ip` must not be connected to, or undefined if it may be.
 * `allowLoopback` permits 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.y.z) only
 * (for local development and tests); every other refusal stays in force.
 */
export function forbiddenReason(ip: string, opts: { allowLoopback: boolean }): string | undefined {
  // A zone id (fe80::1%eth0) is only meaningful for link-local addresses; judge the address.
  const bare = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  const family = isIP(bare);
  if (family === 4) return v4Reason(bare, opts.allowLoopback);
  if (family !== 6) return 'not an IP address';

  const g = ipv6Groups(bare.toLowerCase());
  const first80Zero = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0;
  if (first80Zero && g[5] === 0xffff) {
    // IPv4-mapped ::ffff:0:0/96 — a dual-stack socket connects to the embedded IPv4 address.
    const v4 = v4FromGroups(g[6]!, g[7]!);
    const r = v4Reason(v4, opts.allowLoopback);
    return r && `IPv4-mapped ${v4}: ${r}`;
  }
  if (first80Zero && g[5] === 0 && !(g[6] === 0 && (g[7] === 0 || g[7] === 1))) {
    // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291). Judge the embedded address for a precise
    // reason, but refuse the block either way: it is not routable global unicast.
    const v4 = v4FromGroups(g[6]!, g[7]!);
    const r = v4Reason(v4, false);
    return r ? `IPv4-compatible ${v4}: ${r}` : `IPv4-compatible ${v4}: deprecated (::/96)`;
  }
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0xffff && g[5] === 0) {
    const v4 = v4FromGroups(g[6]!, g[7]!);
    return `IPv4-translated ${v4} (::ffff:0:0:0/96)`;
  }
  if (first80Zero && g[5] === 0 && g[6] === 0 && g[7] === 1) {
    return opts.allowLoopback ? undefined : 'loopback (::1/128)';
  }
  for (const r of V6) if (r.list.check(bare, 'ipv6')) return r.reason;
  if (!GLOBAL_UNICAST_V6.check(bare, 'ipv6')) return 'not global unicast (outside 2000::/3)';
  return undefined;
}

/** Throws BlockedTargetError if `ip` is forbidden. */
export function assertAllowedAddress(ip: string, opts: { allowLoopback: boolean }): void {
  const reason = forbiddenReason(ip, opts);
  if (reason !== undefined) throw new BlockedTargetError(ip, reason);
}
