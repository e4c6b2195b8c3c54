/**
 * What `serve` prints while it runs: its start, each reload, its stop and every warning, as text
 * lines (the default) or, with `--log-format json`, one JSON object per line on stdout for a log
 * pipeline (`time`, `level`, `event`, `msg`, and the event's fields; a warning's `code`, `tenant`,
 * `path` and `uri`).
 *
 * A catalog tells every problem it finds on each load, and marks those its previous load told
 * too (`repeated`, per tenant's catalog with `--tenant-header`): those are not printed again, so a
 * warning about the skills is printed when it first appears or changes. Warnings about requests
 * and storage failures are events, printed each time, except a failed reload, printed again only
 * when its reason changes or after a reload that succeeded.
 */
import type { SkillWarning } from '@skillmount/core';
import { complain, say, sayJsonLine } from './terminal/print.js';
import { warningText } from './terminal/words.js';
import { redact } from './redact.js';
import { UsageError } from './usage.js';

export type LogFormat = 'text' | 'json';

/** `--log-format text|json`: text when absent. */
export function logFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new UsageError(`--log-format must be text or json, got "${value}"`);
}

type Fields = Record<string, unknown>;

export class ServeLog {
  readonly format: LogFormat;
  #failedReload: string | undefined;

  constructor(format: LogFormat) {
    this.format = format;
  }

  /** A reload succeeded: the next failed one is news, whatever its reason. */
  loaded(): void {
    this.#failedReload = undefined;
  }

  /** The catalog's (and the adapter's) `onWarning`. */
  readonly warning = (w: SkillWarning): void => {
    if (this.#isRepeated(w)) return;
    if (this.format === 'json')
      this.#line('warn', 'warning', w.message, {
        code: w.code,
        ...(w.tenant !== undefined ? { tenant: w.tenant } : {}),
        ...(w.path ? { path: w.path } : {}),
        ...(w.uri ? { uri: w.uri } : {}),
      });
    else complain(`skillmount: warning: ${warningText(w)}`);
  };

  /** A warning of serve's own (not a `SkillWarning`): `code` names it in JSON. */
  warn(code: string, text: string): void {
    if (this.format === 'json') this.#line('warn', 'warning', text.replace(/^skillmount: warning: /, ''), { code });
    else complain(text);
  }

  /** An event of the server's life; in text, `text` on stdout (`stream: 'err'`: on stderr). */
  event(event: string, text: string, fields: Fields = {}, stream: 'out' | 'err' = 'out'): void {
    if (this.format === 'json') this.#line(stream === 'err' && event.endsWith('failed') ? 'error' : 'info', event, text.replace(/^skillmount: /, ''), fields);
    else if (stream === 'err') complain(text);
    else say(text);
  }

  #isRepeated(w: SkillWarning): boolean {
    if (w.code !== 'reload-failed') return w.repeated === true;
    const repeated = this.#failedReload === w.message;
    this.#failedReload = w.message;
    return repeated;
  }

  #line(level: 'info' | 'warn' | 'error', event: string, msg: string, fields: Fields): void {
    // Storage errors may carry a connection string: masked here as on stderr.
    sayJsonLine({ time: new Date().toISOString(), level, event, msg: redact(msg), ...fields });
  }
}
