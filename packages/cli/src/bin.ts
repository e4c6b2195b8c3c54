import { main } from './main.js';
import { complain } from './terminal/print.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    complain(`skillmount: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
