// Entry of the operator console's browser bundle (dist/browser/askseam-console.js): loading it
// registers <askseam-console>. Its own bundle, so the question element's page never carries it.
import { defineAskseamConsole } from './console-define.js';

defineAskseamConsole();

export { AskseamConsoleElement } from './console-element.js';
export { defineAskseamConsole } from './console-define.js';
