import type { OpenedStorage } from './types.js';

/** What a PostgreSQL error code or a network error means for the URL given, and what to change. */
const POSTGRES_HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections at that host and port: is PostgreSQL running there?',
  ENOTFOUND: 'the host name does not resolve: check the host in the URL',
  EAI_AGAIN: 'the host name could not be resolved now: check the host in the URL and the network',
  ETIMEDOUT: 'the connection timed out: check the host, the port and the network',
  '28P01': 'the password was refused: check the user and password in the URL',
  '28000': 'the server refused this user: check the user in the URL (and pg_hba.conf)',
  '3D000': 'no such database: check the database name in the URL',
};
/** pg's and pg-pool's errors for a connection not completed within the storage's bound (they have no code). */
const CONNECT_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/**
 * With `--tenant-header` nothing is loaded at start (each tenant loads on its first request), so
 * one cheap request checks the location first: a wrong URL, a missing table or an unset region
 * fails `serve` at once with what to change, instead of every request later.
 */
export async function checkReachable(opened: OpenedStorage): Promise<void> {
  if (opened.kind === 'postgres') return checkPostgres(opened);
  if (opened.kind === 's3') {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const { client, bucket, prefix } = opened.storage;
    try {
      await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1 }));
    } catch (error) {
      throw opened.explain(error, 'cannot serve tenants from');
    }
  }
}

async function checkPostgres(opened: OpenedStorage & { kind: 'postgres' }): Promise<void> {
  const { pool, table } = opened.storage;
  // The table option is checked by the storage: one or two plain identifiers, quoted as written.
  const quoted = table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
  let present: boolean | undefined;
  try {
    const { rows } = await pool.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [quoted]);
    present = rows[0]?.present;
  } catch (error) {
    const code = codeOf(error);
    const timedOut = error instanceof Error && CONNECT_TIMEOUT.test(error.message);
    const hint =
      (code !== undefined && POSTGRES_HINTS[code]) ||
      (timedOut && 'the server accepted no connection within 10 s: check the host and port in the URL, and that PostgreSQL there is not overloaded') ||
      'check the URL (host, port, user, password, database) and that PostgreSQL is running';
    const reason = error instanceof Error && error.message !== '' ? error.message : String(code ?? error);
    throw new Error(`cannot connect to ${opened.label}: ${reason}; ${hint}`, { cause: error });
  }
  if (present === false) {
    // The same message a missing table gets when skills are loaded.
    throw opened.explain(Object.assign(new Error(`relation ${quoted} does not exist`), { code: '42P01' }), 'cannot serve tenants from');
  }
}

/** The code of a pg error, or of the network error under it (an AggregateError for a name with several addresses). */
function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; errors?: { code?: unknown }[] } | undefined;
  if (typeof e?.code === 'string') return e.code;
  const first = e?.errors?.[0]?.code;
  return typeof first === 'string' ? first : undefined;
}
