// Everything a user may import from @askseam/text, named one by one.
export { renderText, defaultTextBudget } from './render.js';
export type { RenderTextOptions } from './render.js';
export { parseTextReply } from './parse.js';
export type { ParseTextReplyOptions, TextReplyProblem, TextReplyResult } from './parse.js';
export { replyText } from './reply.js';
export { quorumProgressText } from './approval.js';
export type { TextVote } from './approval.js';
export { detectLang } from './lang.js';
export type { TextLang } from './lang.js';
