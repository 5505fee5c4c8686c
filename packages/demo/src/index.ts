// Everything the demo package exposes, named one by one (for its tests and for embedding it).
export { startDemo } from './demo.js';
export type { Demo, StartDemoOptions } from './demo.js';
export { demoConfigFromEnv, DEFAULT_MAX_TURNS, DEFAULT_OPENAI_BASE_URL, DEFAULT_PORT } from './config.js';
export type { DemoAgentConfig, DemoConfig, DemoEnv, DemoLang, DemoTransport, OpenAIAgentConfig } from './config.js';
export { DemoError, demoErrorCodes } from './errors.js';
export type { DemoErrorCode } from './errors.js';
export { describeOutcome } from './outcome.js';
export type { AgentOutcome } from './outcome.js';
export type { PrintLine } from './print.js';
export { createDemoRuntime, DEMO_AGENT_ID } from './runtime.js';
export type { DemoRuntime } from './runtime.js';
export { MAX_PLAN_REVIEWS } from './scripted-agent.js';
export { questionIds } from './scenario.js';
export { pagePaths } from './page.js';
