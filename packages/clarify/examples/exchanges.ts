// The example exchanges of docs/forms.md: what the model sends, what the person sees, what the
// model reads back. The docs test runs them and compares every quoted block with the real output.
import type { AskUserQuestionAnswer } from '@askseam/user-questions';

export const formCall = {
  question: 'Please complete the project setup',
  clarification_type: 'missing_info',
  fields: [
    { name: 'project_name', label: 'Project name', type: 'text', required: true, placeholder: 'my-app' },
    { name: 'framework', label: 'Framework', type: 'select', options: '["React (Recommended)", "Vue", "Svelte"]', required: true },
    { name: 'init_git', label: 'Initialise Git', type: 'boolean' },
    { name: 'deadline', label: 'Deadline', type: 'date' },
  ],
};

export const formReply = 'project_name: demo\nframework: vue\nInitialise Git: yes\ndeadline: 2026/8/20';

export const formAnswer: AskUserQuestionAnswer = {
  answers: [
    { id: 'project_name', selected: [], custom: 'demo' },
    { id: 'framework', selected: ['Vue'] },
    { id: 'init_git', selected: [], custom: 'true' },
    { id: 'deadline', selected: [], custom: '2026-08-20' },
  ],
};

export const approvalCall = {
  question: 'Deploy backend v1.2.3 to production?',
  context: 'This is a production release; real users are affected.',
  urgency: 'high',
  format: 'yes_no',
};

export const approvalAnswer: AskUserQuestionAnswer = { answers: [{ id: 'answer', selected: ['Yes'] }] };
