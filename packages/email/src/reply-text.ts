import EmailReplyParser from 'email-reply-parser';
import { htmlToText } from 'html-to-text';

// Only the new text of a reply counts: the quoted question, the client's "On … wrote:" header and
// the signature are cut before `parseTextReply` reads it. email-reply-parser does most of it for
// text; what it misses is fixed here: HTML-only replies (cut at the client's quote markup before
// conversion, so Outlook's <hr> never becomes a dash line that would read as a custom answer),
// Outlook's "From: … Sent: …" block without an address, Chinese clients' headers and signatures.

/** Where a client's HTML starts the quoted message; the reply is everything before the first. */
const htmlQuoteMarkers: readonly RegExp[] = [
  /<div\b[^>]*\bid=["']?divRplyFwdMsg\b/i, // Outlook on the web, new Outlook: the "From: … Sent: …" block
  /<div\b[^>]*\bid=["']?appendonsend\b/i, // Outlook: the empty div before its <hr> and divRplyFwdMsg
  /<div\b[^>]*\bclass=["'][^"']*\bgmail_quote\b/i, // Gmail: its "On … wrote:" and the quote
  /<div\b[^>]*\bclass=["'][^"']*\bmoz-cite-prefix\b/i, // Thunderbird: "On … wrote:"
  /<div\b[^>]*\bclass=["'][^"']*\byahoo_quoted\b/i, // Yahoo
  /<blockquote\b/i, // Apple Mail and Thunderbird (type="cite"), and every client's quote
  /<hr\b/i, // Outlook desktop: the rule above "From: … Sent: …"
  /<div\b[^>]*\bstyle=["'][^"']*border-top:\s*solid\s+#e1e1e1/i, // Outlook desktop: the header block's top border
];

/** Where a text reply's quoted message starts, in the forms email-reply-parser misses. */
const textQuoteMarkers: readonly RegExp[] = [
  /^[ \t]*(?:From|发件人|寄件者|寄件人)[ \t]*[:：].*\n[ \t]*(?:Sent|Date|发送时间|時間|时间|日期|寄件日期|傳送時間)[ \t]*[:：]/m, // Outlook, also without an address
  /^[ \t]*(?:Sent|Date|发送时间|时间|日期)[ \t]*[:：].*\n[ \t]*(?:From|发件人)[ \t]*[:：]/m,
  /^[ \t]*-{2,}[ \t]*(?:Original Message|原始邮件|原始郵件|原邮件|原郵件)[ \t]*-{2,}[ \t]*$/im, // Outlook, QQ Mail, Foxmail
  /^[ \t]*(?:在|於)[^\n]{0,200}(?:\n[^\n]{0,200})?(?:写道|寫道)[ \t]*[:：]?[ \t]*$/m, // Chinese clients' "On … wrote:", also over two lines
  /^[ \t]*On [^\n]{0,200}(?:\n[^\n]{0,200})?wrote:?[ \t]*$/m, // Gmail and Apple Mail, also when the header wraps onto a second line
  /^[ \t]*_{10,}[ \t]*$/m, // Outlook's underscore rule
];

/** Lines that end a reply: the signature delimiter and the mobile clients' lines. */
const signatureMarkers: readonly RegExp[] = [
  /^-- ?$/m,
  /^[ \t]*(?:发自我的|從我的|来自我的|發自我的)\s*\S+.*$/m, // 发自我的iPhone
  /^[ \t]*Sent from (?:my|Mail for|Outlook|Yahoo)\b.*$/m,
  /^[ \t]*Get Outlook for \S+.*$/m,
];

// A closing after a blank line ("Thanks,\nAlex") is no part of the answer; up to two short lines (a name, a title) under it.
const signOff = /\n[ \t]*\n[ \t]*(?:thanks|thank you|many thanks|cheers|best|best wishes|best regards|kind regards|regards|br|谢谢|多谢|此致|祝好)[ \t]*[,!.，！。]?[ \t]*(?:\n[^\n]{0,60}){0,2}\s*$/iu;

/** The person's new text in a parsed reply: the text part, or the HTML part when there is no text part. */
export function replyTextOf(mail: { text?: string | undefined; html?: string | false | undefined }): string {
  const text = mail.text !== undefined && mail.text.trim() !== '' ? mail.text : typeof mail.html === 'string' ? htmlReplyToText(mail.html) : '';
  return stripQuotes(text);
}

/** An HTML-only reply as text, cut where the client's quote starts. */
export function htmlReplyToText(html: string): string {
  const cut = firstIndex(html, htmlQuoteMarkers);
  return htmlToText(cut === undefined ? html : html.slice(0, cut), {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'hr', format: 'skip' },
      { selector: 'p', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    ],
  });
}

/** A text reply without its quoted history and signature. */
export function stripQuotes(text: string): string {
  let body = text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ');
  const quoteAt = firstIndex(body, textQuoteMarkers);
  if (quoteAt !== undefined) body = body.slice(0, quoteAt);
  const signatureAt = firstIndex(body, signatureMarkers);
  if (signatureAt !== undefined) body = body.slice(0, signatureAt);
  body = new EmailReplyParser().parseReply(body).replace(signOff, '');
  // A rule left at the end (a client's separator line) is no answer: "-----" would read as custom text.
  return body.replace(/(?:\n[ \t]*[-_—–=*]{3,}[ \t]*)+\s*$/u, '').replace(/^[ \t]*[-_—–=*]{3,}[ \t]*$/u, '').trim();
}

function firstIndex(text: string, markers: readonly RegExp[]): number | undefined {
  let first: number | undefined;
  for (const marker of markers) {
    const at = marker.exec(text)?.index;
    if (at !== undefined && (first === undefined || at < first)) first = at;
  }
  return first;
}
