// A reporter for Node's test runner, added by scripts/test.mjs beside `spec`. While the suite runs it
// prints a line at least every 15 s saying how many test files have finished, how many tests have
// reported, and which files are running and for how long: `spec` prints a file's results only once
// every file before it has reported, so a slow early file would otherwise hide minutes of work. A
// file starting and a file finishing are reported as they happen, and those are what it counts.
// It also hands every event to Node's own `tap` reporter and writes that reporter's closing lines
// (`# tests N`, `# pass N`, …) to the file named by SKILLMOUNT_TEST_CLOSING_LINES, for test.mjs to
// print last, after one `# failed: <file> › <test>: <reason>` line per failed test, so the end of a
// long log (all a CI summary may show) names what failed. (A third reporter would do the same, but three make Node warn about listeners.)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { tap } from 'node:test/reporters';

const EVERY_MS = 15_000;
const CLOSING = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) .*$/gm;

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** Node runs each file as a top-level test named by the file's path (absolute on Node 20, relative later). */
const isFile = (data) => data?.nesting === 0 && typeof data.file === 'string' && typeof data.name === 'string' && path.resolve(data.name) === data.file;

/** The counts the progress line shows, kept up to date from the runner's events. */
function progressState() {
  const started = Date.now();
  const queued = new Set();
  const running = new Map();
  let done = 0;
  let passed = 0;
  let failed = 0;
  const failures = [];
  return {
    failures,
    see({ type, data }) {
      if (isFile(data)) {
        if (type === 'test:enqueue') queued.add(data.file);
        else if (type === 'test:dequeue') running.set(data.file, Date.now());
        else if (type === 'test:complete') {
          running.delete(data.file);
          done++;
        } else if (type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed') failures.push(failureLine(data));
      } else if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
        if (type === 'test:pass') passed++;
        else {
          failed++;
          failures.push(failureLine(data));
        }
      }
    },
    line() {
      const now = Date.now();
      const files = [...running].map(([file, since]) => `${path.relative(process.cwd(), file)} (${seconds(now - since)})`);
      const reported = passed + failed;
      const tests = `${reported} ${reported === 1 ? 'test' : 'tests'} reported (${failed} failed)`;
      return `[progress ${seconds(now - started)}] ${done} of ${queued.size} test files done, ${tests}; running: ${files.join(', ') || 'none'}\n`;
    },
  };
}

/** `# failed: test/x.test.ts › its name: the first line of why`, one line, cut at 300 characters. */
function failureLine(data) {
  const file = data.file ? path.relative(process.cwd(), data.file) : '?';
  const cause = data.details?.error?.cause ?? data.details?.error;
  const reason =
    String(cause?.message ?? cause ?? '')
      .split('\n')
      .find((line) => line.trim()) ?? '';
  return `# failed: ${file} › ${data.name}: ${reason.trim()}`.slice(0, 300);
}

/** Node's `tap` reporter over a copy of the events; resolves to its closing lines once `copy` ends. */
async function closingLines(copy) {
  const lines = [];
  for await (const chunk of tap(copy)) lines.push(...(String(chunk).match(CLOSING) ?? []));
  return lines;
}

export default async function* progress(source) {
  const state = progressState();
  const closingFile = process.env.SKILLMOUNT_TEST_CLOSING_LINES;
  const copy = closingFile ? new PassThrough({ objectMode: true, highWaterMark: Number.MAX_SAFE_INTEGER }) : undefined;
  const closing = copy ? closingLines(copy) : undefined;
  const events = source[Symbol.asyncIterator]();
  let next = events.next();
  let due = Date.now() + EVERY_MS;
  for (;;) {
    let timer;
    const tick = new Promise((resolve) => {
      timer = setTimeout(resolve, Math.max(0, due - Date.now()), 'tick');
    });
    const event = await Promise.race([next, tick]);
    clearTimeout(timer);
    if (event === 'tick') {
      due = Date.now() + EVERY_MS;
      yield state.line();
      continue;
    }
    if (event.done) break;
    next = events.next();
    state.see(event.value);
    copy?.write(event.value);
  }
  if (copy && closing) {
    copy.end();
    await writeFile(closingFile, [...state.failures, ...(await closing)].join('\n'));
  }
}
