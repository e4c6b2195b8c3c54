/** The machine's Chromium (Debian's package) for the browser tests, which download none. */
import { existsSync } from 'node:fs';
import { build } from 'esbuild';

export const CHROMIUM = '/usr/bin/chromium';

/** A skip reason when Chromium is missing, else false. */
export const skipWithoutChromium: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium); the browser test needs a real Chromium and downloads none`;

// Flags for a machine without internet: no sandbox (root in a container), no GPU, and none of
// the background services that would keep dialling out.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `entry` and what it imports, bundled as one ES module for the page. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const bundled = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  return bundled.outputFiles[0]!.text;
}
