interface Named {
  name: string;
  description: string;
}
/** The element's public surface, declared once. */
export declare const elementApi: {
  tagName: string;
  className: string;
  description: string;
  attributes: (Named & { type: string; default?: string })[];
  properties: (Named & { type: string })[];
  events: (Named & { detail: string })[];
  cssParts: Named[];
  cssProperties: (Named & { default: string })[];
};
/** Absolute path of custom-elements.json. */
export declare const manifestFile: string;
/** The Custom Elements Manifest built from `elementApi`. */
export declare function buildManifest(api?: typeof elementApi): Record<string, unknown>;
/** custom-elements.json's exact text. */
export declare function manifestText(api?: typeof elementApi): string;
