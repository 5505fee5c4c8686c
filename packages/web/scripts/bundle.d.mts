/** Absolute path of dist/browser/askseam-questions.js. */
export declare const bundleFile: string;
/** Bundle the element for browsers; with `write: false` returns the code instead of writing it. */
export declare function buildBrowserBundle(options?: { write?: boolean; minify?: boolean; entryPoint?: string }): Promise<string>;
