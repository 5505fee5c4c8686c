/** Where a page that shows `<askseam-questions>` is served from. */
export interface AskseamPagePolicyOptions {
  /** The port the page is served on (`req.socket.localPort`); without it only `'self'` is reachable. */
  port: number | undefined;
  /** Host names the page is opened under; their `ws://` origins are listed for the socket. */
  hosts?: readonly string[];
}

/**
 * The Content-Security-Policy for a page that shows askseam questions and talks only to its own
 * server: only the page's own scripts run and only its own host is reachable, so text in a question
 * that slipped past the element's sanitizer could neither run script nor load anything remote.
 * The socket origins are spelled out because not every browser lets 'self' cover ws:.
 */
export function askseamPageContentSecurityPolicy({ port, hosts = ['127.0.0.1', 'localhost'] }: AskseamPagePolicyOptions): string {
  const sockets = port === undefined ? [] : hosts.map((host) => `ws://${host}:${port}`);
  return [
    "default-src 'none'",
    "script-src 'self'",
    // The element styles its shadow root with a <style> element, and pages usually have one of their own.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...sockets].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
