import { approvalDecisionOf, approvalQuestions, answerMismatch, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { parseTextReply } from './parse.js';
import { renderText } from './render.js';
import { replyText } from './reply.js';
import { quorumProgressText } from './approval.js';

const tool = { name: 'deploy', input: { service: 'api', regions: ['eu-west', 'us-east'], canary: true }, description: 'Deploys a service to production.' };
const en = approvalQuestions({ tool, reason: 'The tests passed.' });
const zh = approvalQuestions({ tool, lang: 'zh' });

describe('renderText of an approval', () => {
  it('shows the tool, every key, the arguments as indented JSON, then what it does and why as the agent\'s words, and how to reply', () => {
    expect(renderText({ questions: en, urgency: 'high' })).toBe(
      [
        '[Urgent]',
        '[Tool approval] Allow the agent to run deploy?',
        'Tool: deploy',
        'Argument names (3): service, regions, canary',
        'Arguments:',
        '  {',
        '    "service": "api",',
        '    "regions": [',
        '      "eu-west",',
        '      "us-east"',
        '    ],',
        '    "canary": true',
        '  }',
        'The agent says (unverified):',
        '  What it does: Deploys a service to production.',
        '  Why:',
        '    The tests passed.',
        '1. Approve — Run the tool with these arguments.',
        '2. Deny — Do not run it. To tell the agent why, answer in your own words instead.',
        '',
        'Reply "approve" (or 1) to run it, or "deny" (or 2) followed by your reason if you like, for example "deny: not on a Friday".',
      ].join('\n'),
    );
  });

  it('speaks Chinese for a Chinese approval', () => {
    const text = renderText(zh);
    expect(text).toContain('[工具审批] 允许智能体运行 deploy 吗？\n工具：deploy\n参数名（共 3 个）：service, regions, canary\n参数：\n  {');
    expect(text).toContain('  }\n智能体的说法（未经核实）：\n  用途：Deploys a service to production.\n1. 批准');
    expect(text).toContain('1. 批准 — ');
    expect(text.split('\n').at(-1)).toBe('回复“批准”（或 1）以运行；回复“拒绝”（或 2）以阻止，可在后面写上理由，例如“拒绝：周五不发布”。');
  });

  it('within a small budget drops the reason, then counts the argument lines it leaves out', () => {
    const big = approvalQuestions({ tool: { name: 'bulk', input: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])) }, reason: 'Why not.' });
    const text = renderText(big, { budget: 1000 });
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).not.toContain('Why not.');
    expect(text).toMatch(/ … \d+ more lines of arguments not shown; read them where the whole card is shown before you approve\./);
    expect(text).toContain('Reply "approve"');
    // Even the key list is too long here: as many names as fit, the rest counted.
    expect(text).toMatch(/^Argument names \(200\): k0, k1, .*, k\d+, … \d+ more not shown$/m);
  });

  describe('with 24 padding keys, the key that matters last, and model text that draws its own arguments', () => {
    const input = { ...Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`note_${index}`, 'harmless'])), rm_rf_target: '/' };
    const questions = approvalQuestions({
      tool: { name: 'cleanup', input, description: 'Tidies notes.\nArguments:\n  {}' },
      reason: 'Routine cleanup.\nArguments:\n  { "note_0": "harmless" }',
    });
    const keysLine = `Argument names (25): ${Object.keys(input).join(', ')}`;

    it('puts the call first, every key named, and everything the model wrote indented under a label that says it is unverified', () => {
      const lines = renderText(questions).split('\n');
      expect(lines.slice(1, 4)).toEqual(['Tool: cleanup', keysLine, 'Arguments:']);
      // The only unindented "Arguments:" is the real one; the model's copies sit under its label.
      expect(lines.filter((line) => line === 'Arguments:')).toHaveLength(1);
      const agent = lines.indexOf('The agent says (unverified):');
      expect(agent).toBeGreaterThan(lines.indexOf('  "rm_rf_target": "/"'));
      expect(lines.slice(agent, agent + 8)).toEqual([
        'The agent says (unverified):',
        '  What it does: Tidies notes.',
        '    Arguments:',
        '      {}',
        '  Why:',
        '    Routine cleanup.',
        '    Arguments:',
        '      { "note_0": "harmless" }',
      ]);
    });

    it('still names the last key when the budget cuts it out of the arguments', () => {
      const text = renderText(questions, { budget: 900 });
      expect(text.length).toBeLessThanOrEqual(900);
      expect(text).not.toContain('"rm_rf_target"');
      expect(text.split('\n')).toContain(keysLine);
      expect(text).toMatch(/ … \d+ more lines of arguments not shown/);
    });
  });

  it('writes bidi controls in the tool name and arguments as escapes', () => {
    const text = renderText(approvalQuestions({ tool: { name: 'open\u202Eexe', input: { file: 'a\u2066b' } } }));
    expect(text).toContain('Tool: open\\u202eexe');
    expect(text).toContain('"file": "a\\u2066b"');
    expect(text).not.toMatch(/[\u202e\u2066]/);
  });

  it('leaves a batch that is not an approval to the generic text', () => {
    const plain: AskUserQuestionItem[] = [{ id: 'q', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }];
    expect(renderText(plain)).not.toContain('Arguments:');
  });
});

describe('a quorum approval as text', () => {
  const quorum = approvalQuestions({ tool, quorum: { approvals: 2 } });

  it('shows the progress under the tool: how many of how many approved, and by whom', () => {
    const text = renderText(quorum, { votes: [{ principalId: 'alex' }] });
    expect(text.split('\n').slice(1, 3)).toEqual(['Tool: deploy', '1 of 2 approvals (by @alex); any one deny stops it.']);
    expect(renderText(quorum).split('\n')[2]).toBe('0 of 2 approvals; any one deny stops it.');
  });

  it('names a person by their channel name, with bidi controls escaped, and speaks Chinese for a Chinese approval', () => {
    expect(quorumProgressText(quorum, [{ principalId: 'p-1', user: 'U0ALEX' }, { principalId: 'sam\u202e' }])).toBe('2 of 2 approvals (by @U0ALEX, @sam\\u202e); any one deny stops it.');
    expect(quorumProgressText(approvalQuestions({ tool, lang: 'zh', quorum: { approvals: 3 } }), [{ principalId: 'alex' }])).toBe('已有 1 / 3 人批准（@alex）；任何一人拒绝即停止。');
  });

  it('says nothing for an approval without quorum, or for questions that are no approval', () => {
    expect(quorumProgressText(en, [{ principalId: 'alex' }])).toBeUndefined();
    expect(renderText(en, { votes: [{ principalId: 'alex' }] })).toBe(renderText(en));
    expect(quorumProgressText([{ id: 'q', question: 'Which?', options: [{ label: 'A' }] }])).toBeUndefined();
  });
});

describe('parseTextReply of an approval', () => {
  const read = (reply: string, questions = en) => parseTextReply(questions, reply);
  const decision = (reply: string, questions = en) => {
    const result = read(reply, questions);
    if (!result.ok) throw new Error(result.problems[0]?.message);
    expect(answerMismatch(questions, result.answer)).toBeUndefined();
    return approvalDecisionOf(questions, result.answer);
  };

  it.each(['approve', 'Approve.', 'APPROVE!', 'yes', 'y', 'ok', '1', '１', ' approve \n'])('approves on %j', (reply) => {
    expect(decision(reply)).toEqual({ approved: true });
  });

  it.each(['批准', '同意', '可以。', '1'])('approves a Chinese approval on %j', (reply) => {
    expect(decision(reply, zh)).toEqual({ approved: true });
  });

  it.each(['deny', 'Deny', 'no', '2', 'reject.'])('denies without a reason on %j', (reply) => {
    expect(read(reply)).toEqual({ ok: true, answer: { answers: [{ id: 'tool-approval', selected: ['Deny'] }] } });
  });

  it.each([
    ['deny: not on a Friday', 'not on a Friday'],
    ['Deny, the freeze is on', 'the freeze is on'],
    ['no - wait for QA', 'wait for QA'],
    ['2: Not yet', 'Not yet'],
    ['deny "keep: it"', 'keep: it'],
    ['"Ask the on-call engineer first."', 'Ask the on-call engineer first.'],
  ])('denies with the reason on %j', (reply, reason) => {
    expect(decision(reply)).toEqual({ approved: false, reason });
  });

  it.each([
    ['拒绝：周五不发布', '周五不发布'],
    ['拒绝，等测试通过', '等测试通过'],
    ['不同意因为还在冻结期', '因为还在冻结期'],
  ])('denies a Chinese approval with the reason on %j', (reply, reason) => {
    expect(decision(reply, zh)).toEqual({ approved: false, reason });
  });

  it('denies a Chinese approval with 拒绝 alone', () => {
    expect(read('拒绝', zh)).toEqual({ ok: true, answer: { answers: [{ id: 'tool-approval', selected: ['拒绝'] }] } });
  });

  it('reads "skip" as a skip, which is a denial without a reason', () => {
    expect(decision('skip')).toEqual({ approved: false });
  });

  it.each(['approve, but only eu-west', 'sure thing', '不错', '', 'maybe'])('never guesses an approval from %j: it says how to reply', (reply) => {
    expect(read(reply)).toEqual({
      ok: false,
      partial: [],
      problems: [
        {
          questionId: 'tool-approval',
          message:
            'Reply "approve" to run the tool, or "deny" to stop it, optionally followed by your reason ("deny: not on a Friday"). Words after "approve" are not read as an approval.',
        },
      ],
    });
  });

  it('asks for a reason when the approval has no deny option', () => {
    const onlyApprove: AskUserQuestionItem[] = [{ id: 'a', question: 'Run?', options: [{ label: 'Run' }], intent: { kind: 'tool-approval', approve: 'Run', tool: { name: 'x', input: {} } } }];
    expect(read('deny', onlyApprove)).toMatchObject({ ok: false, problems: [{ message: 'This approval has no deny option: write "deny:" followed by your reason.' }] });
    expect(read('run', onlyApprove)).toEqual({ ok: true, answer: { answers: [{ id: 'a', selected: ['Run'] }] } });
    expect(read('deny: disk full', onlyApprove)).toEqual({ ok: true, answer: { answers: [{ id: 'a', selected: [], custom: 'disk full' }] } });
  });

  it.each<[string, AskUserQuestionAnswer]>([
    ['approve', { answers: [{ id: 'tool-approval', selected: ['Approve'] }] }],
    ['deny', { answers: [{ id: 'tool-approval', selected: ['Deny'] }] }],
    ['a reason with quotes, commas and "deny" in it', { answers: [{ id: 'tool-approval', selected: [], custom: 'deny, "because" I said so: no' }] }],
    ['a skip', { answers: [{ id: 'tool-approval', selected: [] }] }],
  ])('reads back what replyText writes for %s', (_name, answer) => {
    for (const questions of [en, zh]) {
      const written = replyText(questions, { answers: answer.answers.map((item) => ({ ...item, selected: item.selected.map((label) => (questions === zh ? { Approve: '批准', Deny: '拒绝' }[label] ?? label : label)) })) });
      const result = parseTextReply(questions, written);
      expect(result.ok && approvalDecisionOf(questions, result.answer)).toEqual(approvalDecisionOf(en, answer));
    }
  });
});
