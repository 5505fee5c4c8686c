import type { AskUserQuestionUrgency, ClientStatus } from '@askseam/client';

/** The languages the element speaks. The `lang` attribute picks one; anything else falls back to English. */
export type AskseamLang = 'en' | 'zh';

/** Every piece of text the element shows that does not come from the question itself. */
export interface AskseamStrings {
  questionChip: string;
  planChip: string;
  pager: (index: number, count: number) => string;
  pagerLabel: (index: number, count: number) => string;
  back: string;
  next: string;
  submit: string;
  skip: string;
  dismiss: string;
  recommended: string;
  chooseOne: string;
  chooseAny: string;
  customLabelSingle: string;
  customLabelMulti: string;
  customLabelOpen: string;
  planRegion: string;
  customPlaceholder: string;
  hintContinue: string;
  hintSubmit: string;
  skippedNote: string;
  incomplete: string;
  /** A required question without an answer (it cannot be skipped). */
  requiredMissing: string;
  /** The visible mark beside a required question. */
  required: string;
  /** The text beside a checkbox question's box (the question itself is the box's accessible name). */
  checkboxYes: string;
  /** Hints under single-line controls (text, number, date, checkbox), where Shift+Enter adds nothing. */
  hintLineContinue: string;
  hintLineSubmit: string;
  /** The urgency badge: short visible text, and the words a screen reader hears. `low` shows none. */
  urgency: Record<Exclude<AskUserQuestionUrgency, 'low'>, { badge: string; label: string }>;
  /** Requests waiting behind the one on screen, `urgent` of them marked high urgency. */
  moreWaiting: (count: number, urgent: number) => string;
  /** A page opened from a one-question link whose question was already answered or dismissed. */
  linkSettled: string;
  /** A question on screen was answered by an agent answerer of the host's route (docs/routing.md). */
  answeredByAgent: (name: string) => string;
  /** Attention (attention.ts): the tab title while hidden, the notification, the permission button. */
  attention: {
    title: (count: number, title: string) => string;
    notificationTitle: (count: number) => string;
    enableNotifications: string;
  };
  /** What a typed input accepts, shown under it. */
  bounds: {
    /** Empty when the number input has no bounds and no step. */
    number: (min: number | undefined, max: number | undefined, step: number | undefined) => string;
    dateRange: (min: string | undefined, max: string | undefined) => string;
    maxLength: (max: number) => string;
  };
  /** Why a typed value cannot be sent, shown on the question (the seam's rule, in this language). */
  problems: {
    notANumber: string;
    numberRange: (min: number | undefined, max: number | undefined) => string;
    offStep: (step: number, from: number) => string;
    notADate: string;
    dateRange: (min: string | undefined, max: string | undefined) => string;
    tooLong: (max: number) => string;
    multiline: string;
  };
  status: Record<ClientStatus, string>;
  sending: string;
  planFeedbackLabel: string;
  planFeedbackPlaceholder: string;
  planFeedbackHint: string;
  sendFeedback: string;
  feedbackEmpty: string;
  feedbackPending: string;
  /** The approval card (a tool call waiting for the person's yes or no). */
  approvalChip: string;
  approvalTool: string;
  approvalDescription: string;
  approvalArguments: string;
  approvalArgumentsRegion: string;
  /** The label of the card's own frame around what will run (the tool's name and arguments). */
  approvalCallLabel: string;
  /** The label of the frame around the model's words (what the tool does, why): not checked by anyone. */
  approvalAgentLabel: string;
  /** The term before the list of every top-level key of the arguments. */
  approvalKeys: string;
  /** What goes before that list: the count, or the word for none. */
  approvalKeyCount: (count: number) => string;
  /** The Deny button's text when the question offers no deny option of its own. */
  approvalDeny: string;
  approvalReasonLabel: string;
  approvalReasonPlaceholder: string;
  approvalReasonHint: string;
  approvalReasonEmpty: string;
  approvalReasonPending: string;
  /** A quorum approval's progress: "1 of 2 approvals (by @alex)", names already written as `@name`. */
  approvalQuorum: (count: number, needed: number, names: readonly string[]) => string;
  badUrl: (message: string) => string;
  errors: {
    'invalid-answer': (detail: string) => string;
    'bad-response': (detail: string) => string;
    'not-pending': string;
    forbidden: string;
    'not-connected': string;
    closed: string;
    unknown: (message: string) => string;
  };
}

const en: AskseamStrings = {
  questionChip: 'Question',
  planChip: 'Plan review',
  pager: (index, count) => `${index} / ${count}`,
  pagerLabel: (index, count) => `Question ${index} of ${count}`,
  back: 'Back',
  next: 'Next',
  submit: 'Submit',
  skip: 'Skip this question',
  dismiss: 'Dismiss',
  recommended: 'Recommended',
  chooseOne: 'Choose one',
  chooseAny: 'Choose any that apply',
  customLabelSingle: 'Or answer in your own words',
  customLabelMulti: 'Add something in your own words',
  customLabelOpen: 'Your answer',
  planRegion: 'Plan',
  customPlaceholder: 'Type your answer…',
  hintContinue: 'Enter to continue · Shift+Enter for a new line',
  hintSubmit: 'Enter to submit · Shift+Enter for a new line',
  skippedNote: 'Skipped. Choose an option or type an answer if you change your mind.',
  incomplete: 'Answer this question or skip it before submitting.',
  requiredMissing: 'This question is required: answer it before submitting.',
  required: 'Required',
  checkboxYes: 'Yes',
  hintLineContinue: 'Enter to continue',
  hintLineSubmit: 'Enter to submit',
  urgency: {
    high: { badge: 'Urgent', label: 'High urgency' },
    medium: { badge: 'Soon', label: 'Medium urgency' },
  },
  moreWaiting: (count, urgent) => `${count} more waiting${urgent > 0 ? `, ${urgent} urgent` : ''}`,
  linkSettled: 'This question has already been answered or dismissed; the link has nothing left to show.',
  answeredByAgent: (name) => `Answered by agent ${name}.`,
  attention: {
    title: (count, title) => `(${count}) ${title}`,
    notificationTitle: (count) => (count === 1 ? 'A question is waiting for you' : `${count} questions are waiting for you`),
    enableNotifications: 'Notify me when a question arrives',
  },
  bounds: {
    number: (min, max, step) => {
      const range = min !== undefined && max !== undefined ? `From ${min} to ${max}` : min !== undefined ? `At least ${min}` : max !== undefined ? `At most ${max}` : '';
      if (step === undefined) return range;
      return range === '' ? `In steps of ${step}` : `${range}, in steps of ${step}`;
    },
    dateRange: (min, max) =>
      min !== undefined && max !== undefined
        ? `From ${formatDay('en', min)} to ${formatDay('en', max)}`
        : min !== undefined
          ? `On or after ${formatDay('en', min)}`
          : max !== undefined
            ? `On or before ${formatDay('en', max)}`
            : '',
    maxLength: (max) => `Up to ${max} characters`,
  },
  problems: {
    notANumber: 'Enter a number, like 42 or -3.5.',
    numberRange: (min, max) =>
      min !== undefined && max !== undefined
        ? `Enter a number from ${min} to ${max}.`
        : min !== undefined
          ? `Enter a number of at least ${min}.`
          : `Enter a number of at most ${max}.`,
    offStep: (step, from) => `Enter a number in steps of ${step}, counting from ${from}.`,
    notADate: 'Enter a complete, real date.',
    dateRange: (min, max) =>
      min !== undefined && max !== undefined
        ? `Choose a date from ${formatDay('en', min)} to ${formatDay('en', max)}.`
        : min !== undefined
          ? `Choose a date on or after ${formatDay('en', min)}.`
          : `Choose a date on or before ${formatDay('en', max ?? '')}.`,
    tooLong: (max) => `Use at most ${max} characters.`,
    multiline: 'Keep this answer on one line.',
  },
  status: {
    connecting: 'Connecting…',
    open: 'Connected',
    reconnecting: 'Reconnecting… your answers so far are kept.',
    closed: 'Disconnected.',
  },
  sending: 'Sending…',
  planFeedbackLabel: 'Or tell the agent what to change',
  planFeedbackPlaceholder: 'Your feedback on the plan…',
  planFeedbackHint: 'Enter to send · Shift+Enter for a new line',
  sendFeedback: 'Send feedback',
  feedbackEmpty: 'Write your feedback first, or choose one of the buttons.',
  feedbackPending: 'You wrote feedback: send it, or clear it to approve the plan as it is.',
  approvalChip: 'Tool approval',
  approvalTool: 'Tool',
  approvalDescription: 'What it does',
  approvalArguments: 'Arguments',
  approvalArgumentsRegion: 'Arguments (JSON)',
  approvalCallLabel: 'This will run',
  approvalAgentLabel: 'The agent says (unverified)',
  approvalKeys: 'Argument names',
  approvalKeyCount: (count) => (count === 0 ? 'none' : `${count} ${count === 1 ? 'key' : 'keys'}: `),
  approvalDeny: 'Deny',
  approvalReasonLabel: 'Reason for denying (optional)',
  approvalReasonPlaceholder: 'Tell the agent why not…',
  approvalReasonHint: 'Enter to deny with this reason · Shift+Enter for a new line',
  approvalReasonEmpty: 'Write why you deny it first, or approve it.',
  approvalReasonPending: 'You wrote a reason to deny: press Deny to send it, or clear it to approve.',
  approvalQuorum: (count, needed, names) => `${count} of ${needed} approvals${names.length === 0 ? '' : ` (by ${names.join(', ')})`}`,
  badUrl: (message) => `Cannot connect to the question host: ${message}`,
  errors: {
    'invalid-answer': (detail) => `This answer does not fit the question: ${detail}`,
    'bad-response': (detail) => `The host refused this answer: ${detail}`,
    'not-pending': 'This question is no longer waiting for an answer; it was answered elsewhere or withdrawn.',
    forbidden: 'You are not allowed to answer this question.',
    'not-connected': 'Not connected, so nothing was sent. Your answer is kept; try again once the connection is back.',
    closed: 'The connection was closed, so nothing was sent.',
    unknown: (message) => `Something went wrong: ${message}`,
  },
};

const zh: AskseamStrings = {
  questionChip: '问题',
  planChip: '计划审阅',
  pager: (index, count) => `${index} / ${count}`,
  pagerLabel: (index, count) => `第 ${index} 题，共 ${count} 题`,
  back: '上一题',
  next: '下一题',
  submit: '提交',
  skip: '跳过此题',
  dismiss: '忽略',
  recommended: '推荐',
  chooseOne: '选择一项',
  chooseAny: '可多选',
  customLabelSingle: '或者用自己的话回答',
  customLabelMulti: '补充你自己的回答',
  customLabelOpen: '你的回答',
  planRegion: '计划',
  customPlaceholder: '输入你的回答…',
  hintContinue: '按 Enter 继续 · Shift+Enter 换行',
  hintSubmit: '按 Enter 提交 · Shift+Enter 换行',
  skippedNote: '已跳过。如果改变主意，可以选择一项或输入回答。',
  incomplete: '提交前请回答此题或跳过它。',
  requiredMissing: '此题必须回答，请先回答再提交。',
  required: '必填',
  checkboxYes: '是',
  hintLineContinue: '按 Enter 继续',
  hintLineSubmit: '按 Enter 提交',
  urgency: {
    high: { badge: '紧急', label: '紧急程度：高' },
    medium: { badge: '尽快', label: '紧急程度：中' },
  },
  moreWaiting: (count, urgent) => `还有 ${count} 个问题在等待${urgent > 0 ? `，其中 ${urgent} 个紧急` : ''}`,
  linkSettled: '这个问题已经被回答或取消，此链接已没有可显示的内容。',
  answeredByAgent: (name) => `已由智能体 ${name} 回答。`,
  attention: {
    title: (count, title) => `(${count}) ${title}`,
    notificationTitle: (count) => (count === 1 ? '有一个问题在等你回答' : `有 ${count} 个问题在等你回答`),
    enableNotifications: '有新问题时通知我',
  },
  bounds: {
    number: (min, max, step) => {
      const range = min !== undefined && max !== undefined ? `范围 ${min} 至 ${max}` : min !== undefined ? `最小 ${min}` : max !== undefined ? `最大 ${max}` : '';
      if (step === undefined) return range;
      return range === '' ? `间隔 ${step}` : `${range}，间隔 ${step}`;
    },
    dateRange: (min, max) =>
      min !== undefined && max !== undefined
        ? `可选 ${formatDay('zh-CN', min)} 至 ${formatDay('zh-CN', max)}`
        : min !== undefined
          ? `${formatDay('zh-CN', min)} 或之后`
          : max !== undefined
            ? `${formatDay('zh-CN', max)} 或之前`
            : '',
    maxLength: (max) => `最多 ${max} 个字符`,
  },
  problems: {
    notANumber: '请输入数字，例如 42 或 -3.5。',
    numberRange: (min, max) =>
      min !== undefined && max !== undefined ? `请输入 ${min} 到 ${max} 之间的数字。` : min !== undefined ? `请输入不小于 ${min} 的数字。` : `请输入不大于 ${max} 的数字。`,
    offStep: (step, from) => `请输入从 ${from} 起、以 ${step} 为间隔的数字。`,
    notADate: '请输入完整且有效的日期。',
    dateRange: (min, max) =>
      min !== undefined && max !== undefined
        ? `请选择 ${formatDay('zh-CN', min)} 至 ${formatDay('zh-CN', max)} 之间的日期。`
        : min !== undefined
          ? `请选择 ${formatDay('zh-CN', min)} 或之后的日期。`
          : `请选择 ${formatDay('zh-CN', max ?? '')} 或之前的日期。`,
    tooLong: (max) => `最多只能输入 ${max} 个字符。`,
    multiline: '此回答只能写一行。',
  },
  status: {
    connecting: '正在连接…',
    open: '已连接',
    reconnecting: '正在重新连接… 已填写的回答会保留。',
    closed: '连接已断开。',
  },
  sending: '正在发送…',
  planFeedbackLabel: '或者告诉智能体需要修改什么',
  planFeedbackPlaceholder: '你对这个计划的意见…',
  planFeedbackHint: '按 Enter 发送 · Shift+Enter 换行',
  sendFeedback: '发送意见',
  feedbackEmpty: '请先写下意见，或点击上面的按钮。',
  feedbackPending: '你写了意见：请发送，或清空后再批准原计划。',
  approvalChip: '工具审批',
  approvalTool: '工具',
  approvalDescription: '用途',
  approvalArguments: '参数',
  approvalArgumentsRegion: '参数（JSON）',
  approvalCallLabel: '将要运行',
  approvalAgentLabel: '智能体的说法（未经核实）',
  approvalKeys: '参数名',
  approvalKeyCount: (count) => (count === 0 ? '无' : `共 ${count} 个：`),
  approvalDeny: '拒绝',
  approvalReasonLabel: '拒绝理由（可选）',
  approvalReasonPlaceholder: '告诉智能体为什么不行…',
  approvalReasonHint: '按 Enter 以此理由拒绝 · Shift+Enter 换行',
  approvalReasonEmpty: '请先写下拒绝理由，或批准它。',
  approvalReasonPending: '你写了拒绝理由：请点“拒绝”发送，或清空后再批准。',
  approvalQuorum: (count, needed, names) => `已有 ${count} / ${needed} 人批准${names.length === 0 ? '' : `（${names.join('、')}）`}`,
  badUrl: (message) => `无法连接到提问服务：${message}`,
  errors: {
    'invalid-answer': (detail) => `这个回答与问题不符：${detail}`,
    'bad-response': (detail) => `服务端拒绝了这个回答：${detail}`,
    'not-pending': '这个问题已不再等待回答：它已在别处被回答或已撤回。',
    forbidden: '你无权回答这个问题。',
    'not-connected': '未连接，回答没有发出。已填写的内容会保留；连接恢复后请重试。',
    closed: '连接已关闭，回答没有发出。',
    unknown: (message) => `出错了：${message}`,
  },
};

const tables: Record<AskseamLang, AskseamStrings> = { en, zh };

/** A `YYYY-MM-DD` day in a locale's medium style, read as a calendar day (UTC, so no zone shifts it). */
function formatDay(locale: string, day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(0);
  date.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? day : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The language for a `lang` attribute value: any `zh…` tag (zh, zh-CN, zh-Hans) is Chinese, the rest English. */
export function resolveLang(value: string | null | undefined): AskseamLang {
  return value?.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The string table for a language. */
export function stringsFor(lang: AskseamLang): AskseamStrings {
  return tables[lang];
}
