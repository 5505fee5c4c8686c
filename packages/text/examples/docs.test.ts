import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { parseTextReply, renderText } from '@askseam/text';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const textBlocks = (markdown: string) => [...markdown.matchAll(/```text\n([\s\S]*?)```/g)].map((match) => (match[1] ?? '').trimEnd());

// The README shows this form rendered and a reply to it; both must be what the code really does.
const form: AskUserQuestionItem[] = [
  { id: 'name', header: 'Project name', question: 'What should the project be called?', input: { kind: 'text' }, required: true },
  { id: 'framework', header: 'Framework', question: 'Which framework?', options: [{ label: 'React (Recommended)' }, { label: 'Vue' }] },
  { id: 'git', question: 'Initialise Git?', input: { kind: 'checkbox' } },
];

describe('the README', () => {

  it('shows the form exactly as renderText writes it, and a reply that parses', () => {
    const [rendered, reply] = textBlocks(read('../README.md'));
    expect(rendered).toBe(renderText(form));
    expect(parseTextReply(form, reply ?? '')).toMatchObject({ ok: true });
  });
});
