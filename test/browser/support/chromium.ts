/** The machine's Chromium (Debian's package) for the browser tests, which download none. */
import { existsSync } from 'node:fs';

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
