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

// request_clarification in the docs: a CRM lookup that lacks three arguments, with internal names
// the person must never see.
export const ordersCall = {
  tool_name: 'crm_order_lookup',
  goal: 'list the open orders of a customer',
  known_arguments: { region: 'EU', include_closed: false },
  missing_fields: [
    { name: 'cust_acct_no_v2', label: 'Customer account number', description: 'The number printed on the customer\'s contract.' },
    { name: 'since_dt', label: 'Earliest order date', description: 'Only orders placed on or after this day.', type: 'date', required: false },
    { name: 'chan_codes', label: 'Sales channels', description: 'Where the orders came in.', type: 'multi_select', options: ['Web shop', 'Phone', 'Partner'] },
  ],
};

export const ordersReply = '1: 10-4471\n2: 2026/3/1\n3: web shop, phone';

// Seed 001's furnace query, with a known date and an optional shift.
export const furnaceCall = {
  tool_name: 'today_furnace_batches',
  goal: '查询今天炉次生产情况',
  known_arguments: { date: '2026-05-01' },
  missing_fields: [
    { name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉', 'A号炉'] },
    { name: 'shift_no', label: '班次', description: '只看某一班时填写（1 到 3）', type: 'number', required: false },
  ],
};

// Seed 001's call as the seed writes it (with a known date), quoted in the README.
export const seedCall = {
  tool_name: 'today_furnace_batches',
  goal: '查询今天炉次生产情况',
  known_arguments: { date: '2026-05-01' },
  missing_fields: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉', 'A号炉'] }],
};
