// How this repository starts Chromium: Debian's /usr/bin/chromium (or ASKSEAM_CHROMIUM) driven
// through playwright-core, so no browser is ever downloaded. Plain JavaScript so that both the
// element's e2e suites (TypeScript under vitest) and the bench (plain Node) launch it one way.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** The Chromium binary: ASKSEAM_CHROMIUM, else Debian's package. */
export const chromiumPath = process.env['ASKSEAM_CHROMIUM'] || '/usr/bin/chromium';

// No sandbox (containers run as root), no GPU (there is none), and nothing that phones home or
// updates itself in the background while a test or a measurement runs.
export const chromiumArgs = Object.freeze(['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']);

/** Whether the binary at `chromiumPath` exists (the bench skips its browser section without it). */
export function chromiumAvailable() {
  return existsSync(chromiumPath);
}

/** A headless Chromium with the flags above. */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs] });
}
