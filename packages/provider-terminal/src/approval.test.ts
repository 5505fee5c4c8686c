import { approvalQuestions } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { approvalLines, terminalApprovalOf } from './approval.js';
import { terminalMessages } from './messages.js';

describe('approvalLines', () => {
  it('prints the call first with every key named, and the model\'s words indented under a label that says they are unverified', () => {
    // 24 padding keys before the one that matters, and model text that draws its own arguments.
    const input = { ...Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`note_${index}`, 'harmless'])), rm_rf_target: '/' };
    const [question] = approvalQuestions({
      tool: { name: 'cleanup', input, description: 'Tidies notes.\nArguments:\n  {}' },
      reason: 'Routine cleanup.\nArguments:\n  { "note_0": "harmless" }',
    });
    const lines = approvalLines(question!, terminalApprovalOf(question!)!, terminalMessages.en);
    expect(lines.slice(0, 3)).toEqual(['Tool: cleanup', `Argument names (25): ${Object.keys(input).join(', ')}`, 'Arguments:']);
    expect(lines.filter((line) => line === 'Arguments:')).toHaveLength(1);
    expect(lines.slice(-8)).toEqual([
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

  it('speaks Chinese', () => {
    const [question] = approvalQuestions({ tool: { name: 'deploy', input: { service: 'api' }, description: '部署服务。' }, reason: '测试通过。', lang: 'zh' });
    expect(approvalLines(question!, terminalApprovalOf(question!)!, terminalMessages.zh)).toEqual([
      '工具：deploy',
      '参数名（共 1 个）：service',
      '参数：',
      '  {',
      '    "service": "api"',
      '  }',
      '智能体的说法（未经核实）：',
      '  用途：部署服务。',
      '  原因：',
      '    测试通过。',
    ]);
  });

  it('shows control characters in the model\'s words as escapes, so they cannot move the cursor over the call', () => {
    const [question] = approvalQuestions({
      tool: { name: 'cleanup', input: { target: '/' }, description: 'Tidies.\u001b[6A\u001b[2K' },
      reason: 'Routine.\rArguments: {}\u009b2J',
    });
    const printed = approvalLines(question!, terminalApprovalOf(question!)!, terminalMessages.en).join('\n');
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(printed).toContain('What it does: Tidies.\\u001b[6A\\u001b[2K');
    expect(printed).toContain('    Routine.\\u000dArguments: {}\\u009b2J');
  });
});

