// The machine's Chromium (Debian's package) and the flags every browser run of the project uses:
// the browser tests and scripts/docs-screenshots.mjs. None downloads a browser.

export const CHROMIUM = '/usr/bin/chromium';

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
