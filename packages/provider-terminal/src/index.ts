// Everything a user may import from @askseam/provider-terminal, named one by one.
export { createTerminalProvider } from './provider.js';
export type { TerminalProvider, TerminalProviderOptions } from './provider.js';
