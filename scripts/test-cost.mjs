// Loaded into every test process by scripts/test.mjs: when the process exits it appends one JSON
// line to SKILLMOUNT_TEST_COST_FILE with what the file cost: wall time from process start, CPU time
// of the process and of the child processes it waited for (PostgreSQL, s3rver, the CLI, peers), the
// time to get as far as the test file (Node.js and the TypeScript loader), and the set-up time the
// test helpers report under a name (test/support/cost.ts: PostgreSQL, the S3 server, builds, peers).
import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.SKILLMOUNT_TEST_COST_FILE;
const loadedMs = performance.now();
const setup = new Map();
globalThis[Symbol.for('skillmount.test.setup')] = setup;

/** CPU milliseconds of the children this process waited for (and theirs): Linux only, else 0. */
function childrenCpuMs() {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th, in clock ticks of 10 ms.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

if (file) {
  process.on('exit', () => {
    const own = process.cpuUsage();
    const line = {
      file: process.argv[1],
      wallMs: Math.round(performance.now()),
      cpuMs: Math.round((own.user + own.system) / 1000),
      childCpuMs: childrenCpuMs(),
      startMs: Math.round(loadedMs),
      setupMs: Object.fromEntries([...setup].map(([name, ms]) => [name, Math.round(ms)])),
    };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The run's summary then lacks this file and says so; the test's own result stands.
    }
  });
}
