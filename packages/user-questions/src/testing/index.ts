// @askseam/user-questions/testing: small real pieces for testing code that asks through the seam
// (a tool, plan mode, your own caller) without a UI. Not part of the main entry.
export { scriptedProvider, waitForAbort } from './scripted-provider.js';
export type { ScriptedProvider } from './scripted-provider.js';
export { agentRegistry } from './agent-registry.js';
