import { field } from './terminal/print.js';

/** What `progress` writes to: a stream that may be a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  /** One more item done; `what` names it on a terminal. */
  step(what: string): void;
  /** Write the last line (on a terminal, replacing the live one). */
  end(summary: string): void;
}

/** Redraws at most this often on a terminal: fast uploads must not flood it. */
const REDRAW_MS = 80;

/**
 * A `publishing 12/40 path` line on stderr: rewritten in place on a terminal, and a single line at
 * the end otherwise, so logs get one line, not one per file.
 */
export function progress(stream: ProgressStream, verb: string, total: number): Progress {
  const live = stream.isTTY === true;
  let done = 0;
  let drawnAt = 0;
  const line = (tail: string) => {
    // `tail` names a file: its control characters are shown, not sent (this line's own are added below).
    const text = `${verb} ${done}/${total}${tail ? ` ${field(tail)}` : ''}`;
    // On a terminal a wrapped line could not be rewritten in place.
    const width = (stream.columns || 80) - 1;
    return live && text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  };
  return {
    step(what) {
      done++;
      if (!live) return;
      const now = Date.now();
      if (now - drawnAt < REDRAW_MS && done < total) return;
      drawnAt = now;
      stream.write(`\r\x1b[K${line(what)}`);
    },
    end(summary) {
      stream.write(`${live ? '\r\x1b[K' : ''}${line(summary)}\n`);
    },
  };
}
