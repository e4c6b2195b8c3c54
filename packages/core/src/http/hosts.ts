import type { IncomingMessage } from 'node:http';
import { BlockList } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { OptionError } from '../option-error.js';
import type { OriginRule } from './origins.js';
import type { AllowedHosts } from './types.js';

/** The names `allowedHosts: true` (and the loopback default) accept: the same list as the SDK's `localhostHostValidation()`. */
export const LOCALHOST_NAMES: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

interface HostName {
  /** Lower-cased, IPv6 in brackets, as WHATWG URL normalises it. */
  hostname: string;
  /** Digits, or '' for "any port". */
  port: string;
}

/** The checked `allowedHosts` option. */
export type HostRule = { kind: 'off' } | { kind: 'loopback-default' } | { kind: 'list'; names: readonly HostName[] };

const LOCALHOST: readonly HostName[] = LOCALHOST_NAMES.map((name) => parseHost(name)!);

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True when the connection arrived on a loopback address (IPv4-mapped IPv6 included). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  try {
    return loopback.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
  } catch {
    return false;
  }
}

/**
 * `host[:port]` split with the WHATWG URL parser, as the SDK's host validation does: the http
 * parse normalises the name (case, IPv6 brackets, IDNA); a scheme without a default port keeps an
 * explicit `:80` visible. Undefined for anything that is not just a host and an optional port.
 */
function parseHost(text: string): HostName | undefined {
  let special: URL;
  let opaque: URL;
  try {
    special = new URL(`http://${text}`);
    opaque = new URL(`x-host://${text}`);
  } catch {
    return undefined;
  }
  if (!special.hostname || special.username || special.password || special.pathname !== '/' || special.search || special.hash) return undefined;
  if (text.endsWith('/') || text.includes('@')) return undefined;
  return { hostname: special.hostname, port: opaque.port };
}

export function normalizeAllowedHosts(value: AllowedHosts | undefined, packageName: string): HostRule {
  if (value === undefined) return { kind: 'loopback-default' };
  if (value === false) return { kind: 'off' };
  if (value === true) return { kind: 'list', names: LOCALHOST };
  if (!Array.isArray(value)) {
    throw new OptionError(
      'invalid-type',
      'allowedHosts',
      `must be a list of host names (e.g. ["skills.example.com"]), true (localhost names only) or false (no check); got ${typeof value}`,
      packageName,
    );
  }
  if (value.length === 0) {
    throw new OptionError(
      'invalid-value',
      'allowedHosts',
      'is an empty list, which would refuse every request; list your host names, or pass false to turn the check off',
      packageName,
    );
  }
  const names = value.map((entry: unknown, i) => {
    const parsed = typeof entry === 'string' ? parseHost(entry) : undefined;
    if (!parsed) {
      throw new OptionError(
        typeof entry === 'string' ? 'invalid-value' : 'invalid-type',
        'allowedHosts',
        `entry ${i} (${JSON.stringify(entry)}) is not a host name with an optional port, such as "skills.example.com", "localhost:3000" or "[::1]"`,
        packageName,
      );
    }
    return parsed;
  });
  return { kind: 'list', names };
}

const shown = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
const forbidden = (what: string, option = 'the allowedHosts option') =>
  `Forbidden: ${what} is not allowed on this endpoint (DNS-rebinding protection); the server's operator can allow it with ${option}`;

function allows(names: readonly HostName[], host: HostName, effectivePort: string): boolean {
  return names.some((name) => name.hostname === host.hostname && (name.port === '' || name.port === effectivePort));
}

// A connection's local address never changes, and reading it asks the kernel: look once per socket.
const loopbackSockets = new WeakMap<object, boolean>();

function arrivedOnLoopback(req: IncomingMessage): boolean {
  const socket = req.socket;
  if (!socket) return false;
  let known = loopbackSockets.get(socket);
  if (known === undefined) {
    const address = socket.localAddress;
    known = isLoopback(address);
    // Before the socket is connected there is no address yet: nothing to remember.
    if (address) loopbackSockets.set(socket, known);
  }
  return known;
}

// Clients send the same Host on every request; parsing one takes two URL parses. Bounded, as the header is the client's.
const HOST_CACHE_MAX = 256;
const parsedHosts = new Map<string, HostName | undefined>();

function parseHostHeader(text: string): HostName | undefined {
  if (parsedHosts.has(text)) return parsedHosts.get(text);
  const parsed = parseHost(text);
  if (parsedHosts.size >= HOST_CACHE_MAX) parsedHosts.clear();
  if (text.length <= 512) parsedHosts.set(text, parsed);
  return parsed;
}

/**
 * Why this request's Host or Origin is refused, or undefined when it is allowed. An Origin listed
 * in `origins` (a browser host on another site) passes; its Host must still be allowed, which is
 * what defeats DNS rebinding.
 */
export function hostRefusal(req: IncomingMessage, rule: HostRule, origins?: OriginRule): string | undefined {
  if (rule.kind === 'off') return undefined;
  let names: readonly HostName[];
  if (rule.kind === 'list') names = rule.names;
  else if (arrivedOnLoopback(req)) names = LOCALHOST;
  else return undefined;

  // HTTP/2 carries the host as :authority.
  const hostHeader = req.headers.host ?? (req.headers[':authority'] as string | undefined);
  if (!hostHeader) return 'Forbidden: the request has no Host header';
  const host = parseHostHeader(hostHeader);
  const defaultPort = (req.socket as TLSSocket | undefined)?.encrypted ? '443' : '80';
  if (!host || !allows(names, host, host.port || defaultPort)) return forbidden(`Host ${shown(hostHeader)}`);

  // Browsers send Origin on cross-site requests; other clients usually send none.
  const originHeader = req.headers.origin;
  if (originHeader === undefined) return undefined;
  // Browsers send the serialised origin, the form the option was normalised to.
  if (origins?.has(originHeader)) return undefined;
  let origin: URL | undefined;
  try {
    origin = new URL(originHeader);
  } catch {
    origin = undefined;
  }
  const originOk =
    origin !== undefined &&
    (origin.protocol === 'http:' || origin.protocol === 'https:') &&
    allows(names, { hostname: origin.hostname, port: origin.port }, origin.port || (origin.protocol === 'https:' ? '443' : '80'));
  return originOk ? undefined : forbidden(`Origin ${shown(originHeader)}`, 'the allowedOrigins option (a browser host) or allowedHosts');
}
