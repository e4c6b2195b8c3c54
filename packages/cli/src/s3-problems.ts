import type { S3Client } from '@aws-sdk/client-s3';

/** Network failures that mean no request reached an S3 server, with what each one says. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

/**
 * The endpoint the storage's client sends requests to, when one is configured
 * (`AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`); undefined for AWS's own endpoints.
 */
export async function configuredEndpoint(client: S3Client): Promise<string | undefined> {
  const provider = client.config.endpoint;
  if (provider === undefined) return undefined;
  try {
    const { protocol, hostname, port, path } = await provider();
    return `${protocol}//${hostname}${port !== undefined ? `:${port}` : ''}${path}`;
  } catch {
    return undefined;
  }
}

/**
 * What to do about an S3 failure that no S3 server answered: no region configured, or an endpoint
 * that cannot be reached (named). Undefined for anything else, whose own message says it best.
 */
export function s3Setup(error: unknown, endpoint: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const e of causes(error)) {
    if (e.message === 'Region is missing') {
      return (
        'no AWS region is set: set AWS_REGION (e.g. AWS_REGION=us-east-1), ' +
        'or AWS_ENDPOINT_URL_S3 with the URL of an S3-compatible server (its region then defaults to us-east-1)'
      );
    }
    const code = networkCode(e);
    if (code === undefined) continue;
    const where = endpoint ?? hostOf(e) ?? 'the S3 endpoint';
    const setting = env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : env.AWS_ENDPOINT_URL ? 'AWS_ENDPOINT_URL' : undefined;
    const check = setting ? `check ${setting} and that the server is running` : 'check the network and AWS_REGION';
    return `the S3 endpoint ${where} could not be reached (${UNREACHABLE[code]}, ${code}): ${check}`;
  }
  return undefined;
}

/**
 * True for the storage's note that it ignores the manifest because no S3 server answered the
 * request for it: the listing that follows meets the same problem and fails with it, so the note
 * (which suggests publishing again) would only mislead.
 */
export function isUnansweredManifestNote(error: { path?: string; cause?: unknown }, manifestPath: string): boolean {
  if (error.path !== manifestPath) return false;
  const cause = error.cause as { $metadata?: { httpStatusCode?: number } } | undefined;
  return cause !== undefined && cause.$metadata?.httpStatusCode === undefined;
}

function* causes(error: unknown): Generator<Error & { code?: unknown; errors?: unknown }> {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    yield e;
    // A name with several addresses fails as an AggregateError: its first error says why.
    const first = (e as { errors?: unknown }).errors;
    if (Array.isArray(first) && first[0] instanceof Error) yield first[0];
  }
}

function networkCode(e: { code?: unknown }): string | undefined {
  return typeof e.code === 'string' && e.code in UNREACHABLE ? e.code : undefined;
}

/** `host:port` of a failed connection (ECONNREFUSED), or the name that did not resolve (ENOTFOUND). */
function hostOf(error: object): string | undefined {
  // Node's network errors carry these fields beside the message.
  const { address, port, hostname } = error as { address?: unknown; port?: unknown; hostname?: unknown };
  if (typeof hostname === 'string') return hostname;
  if (typeof address === 'string') return typeof port === 'number' ? `${address}:${port}` : address;
  return undefined;
}
