/** What a spawned app prints: its stdout so far, and the port it says it listens on. */
import type { ChildProcess } from 'node:child_process';
import { within } from './wait.js';

export interface ChildOutput {
  /** Everything printed on stdout so far. */
  readonly text: string;
  /** The port from the first `listening <port>` line, or a failure after `ms`. */
  port(ms: number): Promise<string>;
}

export function childOutput(child: ChildProcess): ChildOutput {
  let text = '';
  child.stdout!.setEncoding('utf8');
  const port = new Promise<string>((resolve) =>
    child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const match = /listening (\d+)/.exec(text);
      if (match) resolve(match[1]!);
    }),
  );
  return {
    get text() {
      return text;
    },
    port: (ms) => within(port, ms, 'the app to listen'),
  };
}
