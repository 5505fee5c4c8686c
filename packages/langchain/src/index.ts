// Everything a user may import from @askseam/langchain, named one by one.
export { toLangChainTool } from './tool.js';
export type { AskseamLangChainSchema, AskseamLangChainTool, AskseamToolShape } from './tool.js';
