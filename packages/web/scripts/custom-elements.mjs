// Builds custom-elements.json, the Custom Elements Manifest (schema 2.1.0) that editors and
// framework tooling read to know <askseam-questions>'s attributes, property, events, CSS parts
// and custom properties. The element's public surface is declared below, once;
// src/custom-elements.test.ts checks it against the element's source and the checked-in file
// against this builder, so neither can go stale. `node scripts/custom-elements.mjs` rewrites it.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const manifestFile = fileURLToPath(new URL('../custom-elements.json', import.meta.url));

/** The element's public surface, as users and tools see it. */
export const elementApi = {
  tagName: 'askseam-questions',
  className: 'AskseamQuestionsElement',
  description:
    'Shows the oldest pending request of a question client, one at a time, as the question composer, a form page or the plan-review card. Give it `url` (+ `token`) attributes or a `client` property. Shows nothing while nothing is pending.',
  attributes: [
    { name: 'url', type: 'string', description: "The host's WebSocket URL (`ws://…/askseam`), or a path or http(s) URL on the page's own server (`/askseam`). Changing it reconnects." },
    { name: 'token', type: 'string', description: "The host's shared token, sent as `?token=…`. Changing it reconnects." },
    {
      name: 'link',
      type: 'string',
      description:
        "A one-question link's capability (the `?link=` of a page a notification opened), sent to the host instead of `token`: the element shows that question alone and says so once it is settled. Changing it reconnects.",
    },
    { name: 'lang', type: "'en' | 'zh' | string", default: "'en'", description: '`en` (default) or `zh` (any `zh-…` tag). Changing it re-renders; drafts stay.' },
    {
      name: 'notify',
      type: 'boolean',
      description:
        'Present: when a request arrives while the page is hidden, show a Web Notification; clicking it focuses that request. The element shows a "Notify me when a question arrives" button while the person has not yet allowed or blocked notifications: the browser asks only from that click.',
    },
    { name: 'sound', type: 'boolean', description: 'Present: when a request arrives while the page is hidden, play a short chime (Web Audio; silent until the person has interacted with the page).' },
  ],
  properties: [
    {
      name: 'client',
      type: 'QuestionClient | undefined',
      description: 'Use this client instead of `url`/`token`. The element never closes a client it was given; it closes the one it made from its attributes when it is removed from the page.',
    },
  ],
  events: [
    { name: 'askseam-answered', detail: 'AskseamAnsweredDetail', description: 'The host accepted an answer. `detail`: `{ rpcId, sessionId, answer }`.' },
    {
      name: 'askseam-attention',
      detail: 'AskseamAttentionDetail',
      description:
        'A request arrived while the page was hidden and the element called for attention (tab title; notification and sound when enabled). `detail`: `{ rpcId, sessionId, count, notification, sound }`.',
    },
    { name: 'askseam-cancelled', detail: 'AskseamCancelledDetail', description: 'The host accepted a Dismiss. `detail`: `{ rpcId, sessionId }`.' },
    { name: 'askseam-pendingchange', detail: 'AskseamPendingChangeDetail', description: 'The number of waiting requests (or of those marked high urgency) changed. `detail`: `{ count, urgent }`.' },
  ],
  cssParts: [
    { name: 'card', description: 'The card of the request on screen.' },
    { name: 'notify-button', description: 'The "Notify me when a question arrives" button (with `notify`, until the person allows or blocks notifications).' },
    { name: 'status', description: 'The connection status line.' },
    { name: 'waiting', description: 'The note saying how many more requests wait.' },
  ],
  cssProperties: [
    { name: '--askseam-font', default: 'system UI stack (with CJK fallbacks)', description: 'Font family.' },
    { name: '--askseam-mono-font', default: 'ui-monospace, …', description: 'Font of code in Markdown.' },
    { name: '--askseam-font-size', default: '15px', description: 'Base size; everything else is relative.' },
    { name: '--askseam-bg', default: '#ffffff', description: 'Card background.' },
    { name: '--askseam-fg', default: '#1b1f24', description: 'Text.' },
    { name: '--askseam-muted', default: '#5b6470', description: 'Secondary text (hints, descriptions, legend).' },
    { name: '--askseam-border', default: '#d9dee5', description: 'Borders.' },
    { name: '--askseam-surface', default: '#f5f7fa', description: 'Plan panel, code blocks, hover.' },
    { name: '--askseam-accent', default: '#3559e0', description: 'Primary button, selection, chip, focus ring.' },
    { name: '--askseam-accent-fg', default: '#ffffff', description: 'Text on the accent colour.' },
    { name: '--askseam-accent-soft', default: 'accent at 10%', description: 'Selected option and chip background.' },
    { name: '--askseam-danger', default: '#c62828', description: 'Errors, invalid marks, the Required mark and the Urgent badge.' },
    { name: '--askseam-warning', default: '#e0a100', description: 'The "Soon" (medium urgency) badge.' },
    { name: '--askseam-radius', default: '12px', description: 'Card radius (inner elements use 4px less).' },
    { name: '--askseam-shadow', default: 'soft two-layer shadow', description: 'Card shadow.' },
    { name: '--askseam-focus-ring', default: '3px accent ring', description: 'Focus indicator (a `box-shadow`).' },
    { name: '--askseam-max-width', default: '640px', description: 'Card width limit.' },
  ],
};

const elementModule = 'dist/element.js';
const bundleModule = 'dist/browser/askseam-questions.js';

/** The manifest as an object, from `elementApi`. */
export function buildManifest(api = elementApi) {
  const declaration = {
    kind: 'class',
    name: api.className,
    description: api.description,
    tagName: api.tagName,
    customElement: true,
    superclass: { name: 'HTMLElement', package: 'global:' },
    attributes: api.attributes.map(({ name, type, description, ...rest }) => ({ name, type: { text: type }, description, ...rest })),
    members: api.properties.map(({ name, type, description }) => ({ kind: 'field', name, type: { text: type }, description, privacy: 'public' })),
    events: api.events.map(({ name, detail, description }) => ({ name, type: { text: `CustomEvent<${detail}>` }, description })),
    cssParts: api.cssParts,
    cssProperties: api.cssProperties,
  };
  const reference = { name: api.className, module: elementModule };
  return {
    schemaVersion: '2.1.0',
    readme: 'README.md',
    modules: [
      { kind: 'javascript-module', path: elementModule, declarations: [declaration], exports: [{ kind: 'js', name: api.className, declaration: reference }] },
      // Loading the browser bundle registers the tag (defineAskseamQuestions() does it for bundler users).
      {
        kind: 'javascript-module',
        path: bundleModule,
        declarations: [],
        exports: [
          { kind: 'custom-element-definition', name: api.tagName, declaration: reference },
          { kind: 'js', name: api.className, declaration: reference },
        ],
      },
    ],
  };
}

/** The file's exact text: two-space JSON with a final newline. */
export function manifestText(api = elementApi) {
  return `${JSON.stringify(buildManifest(api), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(manifestFile, manifestText());
  console.log(`wrote ${manifestFile}`);
}
