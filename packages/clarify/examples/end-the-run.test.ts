import { describe, expect, it } from 'vitest';
import { resumeWithReply, stopForClarification, type ClarificationStop } from './end-the-run.js';

const args = {
  question: '请补充项目配置',
  clarification_type: 'missing_info',
  fields: [
    { name: 'project_name', label: '项目名称', type: 'text', required: true },
    { name: 'framework', label: '技术栈', type: 'select', options: ['React', 'Vue', 'Svelte'], required: true },
    { name: 'init_git', label: '初始化 Git', type: 'checkbox' },
  ],
};

function stop(): ClarificationStop {
  const stopped = stopForClarification(args);
  if ('error' in stopped) throw new Error(stopped.error);
  return stopped;
}

describe('ending the run on a clarification and resuming on the next turn', () => {
  it('shows the form as text and as a payload', () => {
    const { content, artifact } = stop();
    expect(content).toContain('2. 技术栈（必填）');
    expect(artifact.human_input).toMatchObject({ kind: 'human_input_request', inputMode: 'form', fields: [{ name: 'project_name' }, { name: 'framework' }, { name: 'init_git' }] });
  });

  it('resumes with a typed reply', () => {
    expect(resumeWithReply(stop().pending, '项目名称：demo；技术栈：2；初始化 Git：是')).toEqual({
      toolResult: '{"answers":{"project_name":"demo","framework":"Vue","init_git":true}}',
    });
  });

  it('resumes with the values a form sent', () => {
    expect(resumeWithReply(stop().pending, { project_name: 'demo', framework: 'Svelte', init_git: false })).toEqual({
      toolResult: '{"answers":{"project_name":"demo","framework":"Svelte","init_git":false}}',
    });
  });

  it('asks again, in the user\'s language, about what is missing', () => {
    expect(resumeWithReply(stop().pending, '技术栈：Vue')).toEqual({ askAgain: '第 1 题是必填项，请回答。' });
  });

  it('refuses a call it cannot compile', () => {
    expect(stopForClarification({ options: ['A'] })).toEqual({ error: expect.stringContaining('"question" is missing') });
  });
});
