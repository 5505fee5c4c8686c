// Bundled by browser-validators.property.test.ts exactly as the element is (scripts/bundle.mjs):
// the validators a page gets, with the zod schemas replaced by their build-time plans.
export { parseClientFrame, parseServerFrame } from '@askseam/protocol';
export { checkReceivedAnswer } from '@askseam/user-questions';
