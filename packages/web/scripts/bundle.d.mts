/** Absolute path of dist/browser/askseam-questions.js. */
export declare const bundleFile: string;
/** Bundle the element for browsers; with `write: false` returns the code instead of writing it. */
export declare function buildBrowserBundle(options?: { write?: boolean; minify?: boolean; entryPoint?: string }): Promise<string>;
/** The minified bundle, never written, with the bytes each source file contributes to it. */
export declare function analyseBrowserBundle(): Promise<{ code: string; inputs: Record<string, number> }>;
export declare const consoleBundleFile: string;
export declare function buildConsoleBundle(options?: { write?: boolean }): Promise<string>;
