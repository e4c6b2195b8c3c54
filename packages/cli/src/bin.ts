import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`skillmount: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
