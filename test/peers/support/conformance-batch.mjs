// Runs several server scenarios of the official MCP conformance suite in one Node process, one
// after the other, each exactly as `conformance server --url … --scenario …` runs it: the suite's
// own command line, imported afresh for each run (so no state carries over), with its
// process.exit caught. A process per scenario spent most of its CPU loading the suite's modules.
// Usage: <node 22> conformance-batch.mjs <suite dist/index.js> '<JSON [{ args: [...] }, …]>'
// After each run it prints a line `conformance-batch-run <JSON { code, ms }>`.
import { pathToFileURL } from 'node:url';

const [suite, json] = process.argv.slice(2);
const runs = JSON.parse(json);
const exit = process.exit;
const argv = process.argv;
for (const [index, { args }] of runs.entries()) {
  const started = Date.now();
  const code = await new Promise((resolve, reject) => {
    let ended = false;
    // The suite ends every command with process.exit; the first call is this run's exit code.
    process.exit = (value) => {
      if (!ended) resolve(value ?? 0);
      ended = true;
    };
    process.argv = [argv[0], suite, ...args];
    import(`${pathToFileURL(suite).href}?run=${index}`).catch(reject);
  });
  console.log(`\nconformance-batch-run ${JSON.stringify({ code, ms: Date.now() - started })}`);
}
process.argv = argv;
exit(0);
