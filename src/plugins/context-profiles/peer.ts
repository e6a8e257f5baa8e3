// Who is on the other end of a panel request (issue 32, item 4): the peer address must be loopback
// (or one the user configured), and, where the OS shows who owns a socket (Linux: /proc/net/tcp
// and tcp6), the connecting process must run as the same user as this one. Loopback TCP is open to
// every local user; the access token keeps out whoever lacks it, and this keeps out another user even
// when the page that carries the token (DSH's own server) is fetched directly.

import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';

/**
 * An address without the IPv4-mapped prefix a dual-stack socket reports.
 * @param address - a socket address, e.g. `::ffff:127.0.0.1`.
 * @returns `127.0.0.1` for that; any other address as it is.
 */
export function plainAddress(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

/**
 * Whether an address is loopback: 127.0.0.0/8 or ::1 (IPv4-mapped forms included).
 * @param address - a socket's remote address.
 * @returns true for loopback.
 */
export function isLoopbackAddress(address: string): boolean {
  const plain = plainAddress(address);
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

const hex = (bytes: readonly number[]): string => bytes.map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();

/** An IPv4 address as /proc/net/tcp writes it: the 32-bit value in host (little-endian) byte order. */
function ipv4Hex(address: string): string | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return hex(parts.reverse());
}

/** The 16 bytes of an IPv6 address (`::` and a trailing dotted quad expanded). */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const quad = dotted[1]!.split('.').map(Number);
    tail.push(...quad);
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return undefined;
  const words = [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An IPv6 address as /proc/net/tcp6 writes it: four 32-bit words, each in host byte order. */
function ipv6Hex(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (bytes === undefined) return undefined;
  return [0, 4, 8, 12].map((at) => hex(bytes.slice(at, at + 4).reverse())).join('');
}

/**
 * The ways /proc/net/tcp{,6} may write an endpoint (`ADDR:PORT`, upper-case hex): an IPv4 peer of
 * a dual-stack server can be an IPv4 socket or an IPv4-mapped IPv6 one.
 * @param address - the address as node:net gives it.
 * @param port - the port.
 * @returns the candidate `local_address` fields.
 */
export function procEndpoints(address: string, port: number): string[] {
  const plain = plainAddress(address);
  const p = port.toString(16).padStart(4, '0').toUpperCase();
  const forms = plain.includes(':') ? [ipv6Hex(plain)] : [ipv4Hex(plain), ipv6Hex(`::ffff:${plain}`)];
  return forms.filter((f): f is string => f !== undefined).map((f) => `${f}:${p}`);
}

/**
 * The uid owning the socket whose local end is one of `endpoints`, in the text of /proc/net/tcp or
 * tcp6 (columns: sl, local_address, rem_address, st, queues, timer, retransmits, uid, …).
 * @param table - the file's text.
 * @param endpoints - from `procEndpoints`.
 * @returns the uid, or undefined when no line has that local end.
 */
export function socketOwner(table: string, endpoints: readonly string[]): number | undefined {
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length > 7 && endpoints.includes(fields[1]!)) {
      const uid = Number(fields[7]);
      if (Number.isInteger(uid)) return uid;
    }
  }
  return undefined;
}

/** What is known about a peer's user: the same as ours, another, or nothing (no /proc, not found). */
export type PeerUser = 'same' | 'other' | 'unknown';

const known = new WeakMap<Socket, Promise<PeerUser>>();

/**
 * Whether the process at the other end of a loopback connection runs as this process's user.
 * Answered once per connection (a kept-alive connection asks again for nothing).
 * @param socket - the request's socket.
 * @returns same, other or unknown.
 */
export function peerUser(socket: Socket): Promise<PeerUser> {
  let answer = known.get(socket);
  if (answer === undefined) {
    answer = lookUp(socket);
    known.set(socket, answer);
  }
  return answer;
}

async function lookUp(socket: Socket): Promise<PeerUser> {
  const uid = process.getuid?.();
  const { remoteAddress, remotePort } = socket;
  if (uid === undefined || remoteAddress === undefined || remotePort === undefined) return 'unknown';
  const endpoints = procEndpoints(remoteAddress, remotePort);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(table, 'latin1');
    } catch {
      continue;
    }
    const owner = socketOwner(text, endpoints);
    if (owner !== undefined) return owner === uid ? 'same' : 'other';
  }
  return 'unknown';
}
