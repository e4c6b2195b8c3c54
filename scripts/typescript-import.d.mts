// Types of scripts/typescript-import.mjs, for the tests and benchmarks that start TypeScript child processes.
export declare const TYPESCRIPT_IMPORT: readonly string[];
