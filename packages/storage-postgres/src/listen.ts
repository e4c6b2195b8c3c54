import pg from 'pg';
import type { StorageError } from '@skillmount/core/storage-kit';
import { tableError, type Scope } from './errors.js';
import type { TableNames } from './table.js';

export interface ListenConfig {
  /** Connection settings for the dedicated LISTEN connection (the pool's own). */
  connection: pg.ClientConfig;
  names: TableNames;
  scope: Scope;
  debounceMs: number;
  onError: (error: StorageError) => void;
}

/** Reconnection delays: doubling from the first, capped, with jitter so replicas spread out. */
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 10_000;

/**
 * LISTEN on the table's channel over a dedicated connection (not a pool client: a pool would
 * hand it out or close it when idle). Notifications for the namespace, or `'*'` (TRUNCATE),
 * call `onChange` at most once per `debounceMs`. When the connection drops it reconnects with
 * backoff and calls `onChange` once it is listening again, since writes may have been missed;
 * the first connection does the same, covering writes made between a catalog load and LISTEN.
 * Resolves the returned `stop` once the connection is closed.
 */
export function listen(config: ListenConfig, onChange: () => void): () => Promise<void> {
  const { names, scope } = config;
  let stopped = false;
  let current: pg.Client | undefined;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let debounceTimer: NodeJS.Timeout | undefined;

  const report = (reason: string, cause?: unknown) => config.onError(tableError(scope, reason, cause));

  const fire = () => {
    if (stopped || debounceTimer) return;
    debounceTimer = setTimeout(() => {
      debounceTimer = undefined;
      if (stopped) return;
      try {
        onChange();
      } catch (error) {
        report(`the watch callback threw: ${(error as Error)?.message ?? error}`, error);
      }
    }, config.debounceMs);
  };

  const connect = async () => {
    retryTimer = undefined;
    const client = new pg.Client({ ...config.connection, keepAlive: true });
    current = client;
    let lost = false;
    let listening = false;
    const onLost = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.8 + Math.random() * 0.4);
      attempt++;
      const reason = (error as Error)?.message ?? String(error);
      const what = listening ? 'connection lost' : 'cannot connect';
      report(`watch: LISTEN ${names.channel}: ${what} (${reason}); retrying in ${Math.round(delay)} ms`, error);
      retryTimer = setTimeout(connect, delay);
    };
    // Always listen for 'error': an unhandled one would crash the process.
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('the connection was closed')));
    client.on('notification', (message) => {
      if (message.channel === names.channel && (message.payload === scope.namespace || message.payload === '*')) fire();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${names.channelIdentifier}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (stopped || lost) return;
    listening = true;
    attempt = 0;
    fire();
  };

  void connect();

  return async () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(debounceTimer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };
}
