import type { Browser } from 'playwright-core';

/** The Chromium binary: ASKSEAM_CHROMIUM, else /usr/bin/chromium. */
export declare const chromiumPath: string;
/** The command-line flags every Chromium in this repository starts with. */
export declare const chromiumArgs: readonly string[];
/** Whether the binary at `chromiumPath` exists. */
export declare function chromiumAvailable(): boolean;
/** A headless Chromium at `chromiumPath` with `chromiumArgs`. */
export declare function launchChromium(): Promise<Browser>;
