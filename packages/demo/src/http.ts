import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { askseamPageContentSecurityPolicy } from '@askseam/web/server';
import type { DemoLang, DemoTransport } from './config.js';
import { demoPageHtml, demoPageScript, pagePaths } from './page.js';

export interface DemoHttpOptions {
  /** The web component's browser bundle on disk; read per request so a rebuild shows up on reload. */
  bundlePath: string;
  /** The page language when the address has no valid `?lang=`. */
  defaultLang: DemoLang;
  /** The transport the page's element uses. Default `'ws'`. */
  transport?: DemoTransport;
}

/**
 * The plain-HTTP side of the demo server: the page, its script, and the bundle. WebSocket
 * upgrades on `/askseam` and the host's HTTP routes under `/askseam/` never reach this handler;
 * the host takes them.
 */
export function demoRequestHandler({ bundlePath, defaultLang, transport = 'ws' }: DemoHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, req, 500, 'text/plain; charset=utf-8', `Internal error: ${String(error)}\n`);
      else res.destroy();
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, req, 405, 'text/plain; charset=utf-8', 'Only GET and HEAD are served here.\n');
      return;
    }
    switch (url.pathname) {
      case pagePaths.page: {
        const requested = url.searchParams.get('lang');
        const lang: DemoLang = requested === 'en' || requested === 'zh' ? requested : defaultLang;
        res.setHeader('content-security-policy', askseamPageContentSecurityPolicy({ port: req.socket.localPort }));
        send(res, req, 200, 'text/html; charset=utf-8', demoPageHtml(lang, transport));
        return;
      }
      case pagePaths.script:
        send(res, req, 200, 'text/javascript; charset=utf-8', demoPageScript);
        return;
      case pagePaths.bundle:
      case pagePaths.bundleMap: {
        const file = url.pathname === pagePaths.bundle ? bundlePath : `${bundlePath}.map`;
        const type = url.pathname === pagePaths.bundle ? 'text/javascript; charset=utf-8' : 'application/json; charset=utf-8';
        const body = await readFile(file).catch(() => undefined);
        if (body === undefined) {
          send(res, req, 404, 'text/plain; charset=utf-8', `The web component bundle is missing (${file}). Run \`pnpm build\` first.\n`);
          return;
        }
        send(res, req, 200, type, body);
        return;
      }
      default:
        send(res, req, 404, 'text/plain; charset=utf-8', 'Not found. The demo page is at /.\n');
    }
  }
}


function send(res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string | Buffer): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('content-length', Buffer.byteLength(body));
  // A dev server: always fresh, so a rebuilt bundle or a new token is never served stale.
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  res.end(req.method === 'HEAD' ? undefined : body);
}
