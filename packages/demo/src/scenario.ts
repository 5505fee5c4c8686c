import type { AskUserQuestionArgs } from '@askseam/tool-ask-user';
import type { DemoLang } from './config.js';

// The scripted agent's lines: what it asks and the plan it writes from the answers, in English and
// Chinese. Control flow lives in scripted-agent.ts; this file is only words.

/** What the user chose, with "(Recommended)" already stripped; `undefined` where they skipped. */
export interface ScenarioChoices {
  framework: string | undefined;
  features: string[];
  name: string | undefined;
  hosting: string | undefined;
}

export interface Scenario {
  /** The agent's opening line in the transcript. */
  readonly intro: string;
  /** Call 1: a single-select with a recommended first option, and a multi-select. */
  readonly firstQuestions: AskUserQuestionArgs;
  /** Call 2: a free-text question (no options) and a single-select that mentions the chosen framework. */
  secondQuestions(framework: string | undefined): AskUserQuestionArgs;
  /** Asked when the user keeps planning without saying what to change. */
  readonly changeQuestion: AskUserQuestionArgs;
  plan(choices: ScenarioChoices): string;
  /** The section appended to the plan for one round of review feedback. */
  revision(round: number, feedback: string): string;
}

export const questionIds = {
  framework: 'framework',
  features: 'features',
  name: 'project-name',
  hosting: 'hosting',
  change: 'plan-change',
} as const;

const english: Scenario = {
  intro: 'I will plan a new website with you. First, a few questions.',
  firstQuestions: {
    questions: [
      {
        id: questionIds.framework,
        header: 'Framework',
        question: 'Which framework should the new website use?',
        options: [
          {
            label: 'Astro (Recommended)',
            description: 'Content-first and ships almost no JavaScript by default: the simplest start for a site or a blog.',
          },
          { label: 'Next.js', description: 'A full React framework with server rendering: more moving parts, best when pages behave like an app.' },
          { label: 'SvelteKit', description: 'Small bundles and a gentle learning curve, with a smaller ecosystem than React.' },
        ],
      },
      {
        id: questionIds.features,
        header: 'Features',
        question: 'Which features should the first version include?',
        multi_select: true,
        options: [
          { label: 'Blog with Markdown posts', description: 'Posts are Markdown files in the repository, so no database is needed.' },
          { label: 'Contact form', description: 'Messages reach your inbox through a form service; it needs spam protection.' },
          { label: 'Dark mode', description: 'Follows the system setting, with a toggle that remembers the choice.' },
          { label: 'Analytics', description: 'Privacy-friendly page-view counts without cookies.' },
        ],
      },
    ],
  },
  secondQuestions: (framework) => ({
    questions: [
      {
        id: questionIds.name,
        header: 'Name',
        question: 'What should the project be called? It becomes the folder name and the site title.',
      },
      {
        id: questionIds.hosting,
        header: 'Hosting',
        question: framework === undefined ? 'Where should the site be deployed?' : `Where should the ${framework} site be deployed?`,
        options: [
          {
            label: 'Static hosting (Recommended)',
            description: 'Netlify, Cloudflare Pages or GitHub Pages: free for small sites and nothing to keep running.',
          },
          { label: 'A Node.js server', description: 'Renders pages on every request; you keep a server running and updated.' },
          { label: 'Not decided yet', description: 'Keep the build portable and choose a host later.' },
        ],
      },
    ],
  }),
  changeQuestion: {
    questions: [{ id: questionIds.change, header: 'Plan', question: 'What should change in the plan?' }],
  },
  plan: (choices) => {
    const framework = choices.framework ?? 'a framework still to be chosen';
    const name = choices.name ?? 'my-site';
    // The option labels read as headings; in a sentence they need their lower-case form.
    const hostingProse: Record<string, string | undefined> = {
      'Static hosting': 'static hosting',
      'A Node.js server': 'a Node.js server',
      'Not decided yet': undefined,
    };
    const decided = choices.hosting === undefined ? undefined : Object.hasOwn(hostingProse, choices.hosting) ? hostingProse[choices.hosting] : choices.hosting;
    const hosting = decided ?? 'a host still to be chosen';
    const featureSteps: Record<string, string> = {
      'Blog with Markdown posts': 'Add a blog: a content folder of Markdown posts, a list page and a page per post.',
      'Contact form': 'Add a contact form backed by a form service, with spam protection and a thank-you page.',
      'Dark mode': 'Add dark mode that follows the system setting, with a toggle that remembers the choice.',
      Analytics: 'Add cookie-free analytics and document what is counted.',
    };
    const steps = [
      `Create the project \`${slugOf(name)}\` with ${framework}'s starter template and TypeScript in strict mode.`,
      ...choices.features.map((feature) => featureSteps[feature] ?? `Build "${feature}".`),
      'Add formatting, linting and a CI job that builds the site on every push.',
      `Set up deployment to ${hosting}.`,
      'Write a README that says how to run, build and deploy the site.',
    ];
    return [
      `# Plan: set up "${name}"`,
      '',
      `A new website built with ${framework}, deployed to ${hosting}.`,
      '',
      '## Decisions',
      '',
      `- **Framework:** ${choices.framework ?? 'not chosen yet'}`,
      `- **Features:** ${choices.features.length > 0 ? choices.features.join(', ') : 'none for the first version'}`,
      `- **Hosting:** ${choices.hosting ?? 'not chosen yet'}`,
      `- **Name:** ${name}`,
      '',
      '## Steps',
      '',
      ...steps.map((step, index) => `${index + 1}. ${step}`),
    ].join('\n');
  },
  revision: (round, feedback) => [`## Changes after review ${round}`, '', ...quoted(feedback), '', 'The steps above are kept; this change is added to them.'].join('\n'),
};

const chinese: Scenario = {
  intro: '我来和你一起规划一个新网站。先问几个问题。',
  firstQuestions: {
    questions: [
      {
        id: questionIds.framework,
        header: '框架',
        question: '新网站用哪个框架？',
        options: [
          { label: 'Astro（推荐）', description: '以内容为主，默认几乎不发送 JavaScript：做网站或博客最简单的起点。' },
          { label: 'Next.js', description: '完整的 React 框架，支持服务端渲染：组件更多，适合像应用一样的页面。' },
          { label: 'SvelteKit', description: '包体小、上手平缓，但生态比 React 小。' },
        ],
      },
      {
        id: questionIds.features,
        header: '功能',
        question: '第一版要包含哪些功能？',
        multi_select: true,
        options: [
          { label: 'Markdown 博客', description: '文章是仓库里的 Markdown 文件，不需要数据库。' },
          { label: '联系表单', description: '通过表单服务把留言发到你的邮箱，需要防垃圾信息。' },
          { label: '深色模式', description: '跟随系统设置，并提供一个会记住选择的开关。' },
          { label: '访问统计', description: '不用 Cookie、注重隐私的页面浏览统计。' },
        ],
      },
    ],
  },
  secondQuestions: (framework) => ({
    questions: [
      { id: questionIds.name, header: '名称', question: '项目叫什么名字？它会用作文件夹名和网站标题。' },
      {
        id: questionIds.hosting,
        header: '部署',
        question: framework === undefined ? '网站部署到哪里？' : `${framework} 网站部署到哪里？`,
        options: [
          { label: '静态托管（推荐）', description: 'Netlify、Cloudflare Pages 或 GitHub Pages：小网站免费，无需维护服务器。' },
          { label: 'Node.js 服务器', description: '每次请求时渲染页面；需要一直运行并维护服务器。' },
          { label: '还没决定', description: '让构建保持可移植，之后再选托管方式。' },
        ],
      },
    ],
  }),
  changeQuestion: {
    questions: [{ id: questionIds.change, header: '计划', question: '计划里需要改什么？' }],
  },
  plan: (choices) => {
    const framework = choices.framework ?? '待定的框架';
    const name = choices.name ?? 'my-site';
    const hosting = choices.hosting === undefined || choices.hosting === '还没决定' ? '待定的托管方式' : choices.hosting;
    const featureSteps: Record<string, string> = {
      'Markdown 博客': '添加博客：一个存放 Markdown 文章的内容目录、文章列表页和每篇文章的页面。',
      联系表单: '添加由表单服务支持的联系表单，带防垃圾信息和感谢页面。',
      深色模式: '添加跟随系统设置的深色模式，并提供会记住选择的开关。',
      访问统计: '添加不用 Cookie 的访问统计，并写明统计了什么。',
    };
    const steps = [
      `用 ${framework} 的入门模板创建项目 \`${slugOf(name)}\`，开启 TypeScript 严格模式。`,
      ...choices.features.map((feature) => featureSteps[feature] ?? `实现「${feature}」。`),
      '添加格式化、代码检查，以及每次推送都构建网站的 CI 任务。',
      `配置部署到${hosting}。`,
      '写一份 README，说明如何运行、构建和部署。',
    ];
    return [
      `# 计划：搭建「${name}」`,
      '',
      `一个用 ${framework} 构建、部署到${hosting}的新网站。`,
      '',
      '## 决定',
      '',
      `- **框架：** ${choices.framework ?? '尚未选择'}`,
      `- **功能：** ${choices.features.length > 0 ? choices.features.join('、') : '第一版不含额外功能'}`,
      `- **部署：** ${choices.hosting ?? '尚未选择'}`,
      `- **名称：** ${name}`,
      '',
      '## 步骤',
      '',
      ...steps.map((step, index) => `${index + 1}. ${step}`),
    ].join('\n');
  },
  revision: (round, feedback) => [`## 第 ${round} 轮评审后的修改`, '', ...quoted(feedback), '', '上面的步骤保持不变，并加入这项修改。'].join('\n'),
};

export function scenarioFor(lang: DemoLang): Scenario {
  return lang === 'zh' ? chinese : english;
}

/** A folder name from the project name; Chinese or symbol-only names fall back to a plain default. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'my-site' : slug;
}

function quoted(text: string): string[] {
  return text.split(/\r?\n/).map((line) => `> ${line}`);
}
