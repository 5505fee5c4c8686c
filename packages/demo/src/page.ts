import type { DemoLang, DemoTransport } from './config.js';

// The demo page. The token is deliberately absent from the HTML: the page script reads it from the
// page's own address (the URL the terminal printed), so the server never echoes a secret into a
// document that could be cached or shared.

export const pagePaths = {
  page: '/',
  script: '/demo.js',
  bundle: '/askseam-questions.js',
  bundleMap: '/askseam-questions.js.map',
  socket: '/askseam',
} as const;

const text: Record<DemoLang, { title: string; lead: string; terminal: string; noToken: string }> = {
  en: {
    title: 'askseam demo',
    lead: 'A demo agent is planning a new website with you. Its questions appear below, one request at a time.',
    terminal: 'The terminal that runs <code>pnpm demo</code> prints every tool call and every tool result the model receives.',
    noToken: 'This address has no token, so the agent cannot reach you. Open the exact URL printed in the terminal.',
  },
  zh: {
    title: 'askseam 演示',
    lead: '一个演示智能体正在和你一起规划新网站。它的问题会显示在下面，一次一个请求。',
    terminal: '运行 <code>pnpm demo</code> 的终端会打印每次工具调用，以及模型收到的每个工具结果。',
    noToken: '这个地址没有令牌，智能体无法联系到你。请打开终端里打印的完整 URL。',
  },
};

/**
 * The page for one language; `lang` also goes to the element, which translates its own controls.
 * `transport` goes to the page script in a meta tag: it picks the URL the element is given.
 */
export function demoPageHtml(lang: DemoLang, transport: DemoTransport = 'ws'): string {
  const t = text[lang];
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<meta name="askseam-transport" content="${transport}">
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  main { max-width: 44rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
  header { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
  h1 { font-size: 1.5rem; margin: 0; }
  nav a { margin-left: 0.75rem; }
  .lead { margin: 0.75rem 0 0.25rem; }
  .note { margin: 0 0 1.5rem; opacity: 0.75; font-size: 0.925rem; }
  .warning { border: 1px solid #d97706; border-radius: 0.5rem; padding: 0.75rem 1rem; }
</style>
<script type="module" src="${pagePaths.bundle}"></script>
<script type="module" src="${pagePaths.script}"></script>
</head>
<body>
<main>
  <header>
    <h1>${t.title}</h1>
    <nav aria-label="Language"><a data-lang="en" href="?lang=en">English</a><a data-lang="zh" href="?lang=zh">中文</a></nav>
  </header>
  <p class="lead">${t.lead}</p>
  <p class="note">${t.terminal}</p>
  <p id="no-token" class="warning" role="alert" hidden>${t.noToken}</p>
  <askseam-questions lang="${lang}"></askseam-questions>
</main>
</body>
</html>
`;
}

/**
 * Runs in the browser: hands the element the host URL and the token from the page's own query
 * string, and keeps the token on the language links so switching language does not lose it. The
 * element picks the transport from the URL: `ws://` for the socket, `http(s)://` for SSE.
 * Setting `token` before `url` matters: the element connects as soon as it has a URL.
 */
export const demoPageScript = `const params = new URLSearchParams(location.search);
const token = params.get('token');
const element = document.querySelector('askseam-questions');
const sse = document.querySelector('meta[name="askseam-transport"]')?.content === 'sse';
if (token) {
  element.setAttribute('token', token);
  element.setAttribute('url', sse ? \`\${location.protocol}//\${location.host}${pagePaths.socket}\` : \`ws://\${location.host}${pagePaths.socket}\`);
} else {
  document.getElementById('no-token').hidden = false;
}
for (const link of document.querySelectorAll('nav a[data-lang]')) {
  const next = new URLSearchParams(params);
  next.set('lang', link.dataset.lang);
  link.href = \`?\${next}\`;
}
`;
