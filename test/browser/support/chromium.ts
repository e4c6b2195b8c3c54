/** The machine's Chromium (Debian's package) for the browser tests, which download none. */
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { CHROMIUM } from '../../../scripts/chromium.mjs';

export { CHROMIUM, CHROMIUM_ARGS } from '../../../scripts/chromium.mjs';

/** A skip reason when Chromium is missing, else false. */
export const skipWithoutChromium: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium); the browser test needs a real Chromium and downloads none`;

/** `entry` and what it imports, bundled as one ES module for the page. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const bundled = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  return bundled.outputFiles[0]!.text;
}
