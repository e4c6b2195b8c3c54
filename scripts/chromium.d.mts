// Types of scripts/chromium.mjs, for the browser tests.
export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: string[];
