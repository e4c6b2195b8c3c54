// Types of scripts/node-install.mjs, for the test support that installs a Node.js release too.
export declare const NODES: readonly string[];
export declare function major(version: string): number;
export declare function releaseOf(wanted: string | number | undefined, option: string): string;
export declare function ensureNode(version: string): Promise<string>;
export declare function envFor(node: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
