// The main entry under the same Node-only settings (tsconfig.dom-free-main.json): it must FAIL,
// since the element extends HTMLElement. src/server.test.ts checks that it does, which proves the
// dom-free check can tell the two apart.
import type { AskseamQuestionsElement } from '@askseam/web';

export type Element = AskseamQuestionsElement;
