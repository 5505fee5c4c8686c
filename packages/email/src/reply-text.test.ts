// Replies written the way real clients quote: only the person's new text may reach parseTextReply.
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { replyTextOf, stripQuotes } from './reply-text.js';

const question = 'Which framework?\n1. React (Recommended)\n2. Vue';

describe('stripQuotes: text replies', () => {
  it('cuts Gmail\'s "On … wrote:" even when the header wraps onto two lines', () => {
    expect(stripQuotes(`2\n\nOn Tue, Dec 1, 2026 at 10:00 AM Agent <\nreply+abc.def@reply.example.com> wrote:\n\n> ${question.replace(/\n/g, '\n> ')}\n`)).toBe('2');
  });

  it('cuts Outlook\'s "From: … Sent: …" block, also when From has no address', () => {
    expect(stripQuotes(`Vue\n\n________________________________\nFrom: Agent <agent@example.com>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Alex <alex@example.com>\nSubject: Which framework?\n\n${question}`)).toBe('Vue');
    expect(stripQuotes(`Vue\r\n\r\nFrom: Agent\r\nSent: Tuesday, December 1, 2026 10:00 AM\r\nTo: Alex\r\nSubject: Which framework?\r\n\r\n${question}`)).toBe('Vue');
    expect(stripQuotes(`1\n\n-----Original Message-----\nFrom: Agent\n${question}`)).toBe('1');
  });

  it('cuts Apple Mail\'s quote and its mobile signature', () => {
    expect(stripQuotes(`deny: not on a Friday\n\nSent from my iPhone\n\n> On 1 Dec 2026, at 10:00, Agent <agent@example.com> wrote:\n>\n> ${question}`)).toBe('deny: not on a Friday');
  });

  it('cuts Thunderbird\'s "On 12/1/26 10:00 AM, … wrote:" and the "-- " signature', () => {
    expect(stripQuotes(`React\n\n-- \nAlex Example\nCTO\n\nOn 12/1/26 10:00 AM, Agent wrote:\n> ${question}`)).toBe('React');
  });

  it('cuts Chinese clients\' headers: "在 … 写道：", 发件人/发送时间 and 原始邮件, and 发自我的iPhone', () => {
    expect(stripQuotes(`批准\n\n在 2026年12月1日 周二 上午10:00，Agent <agent@example.com> 写道：\n> ${question}`)).toBe('批准');
    expect(stripQuotes(`拒绝：周五不发布\n\n发件人: Agent <agent@example.com>\n发送时间: 2026年12月1日 10:00\n收件人: alex@example.com\n主题: 审批`)).toBe('拒绝：周五不发布');
    expect(stripQuotes(`2\n\n------------------ 原始邮件 ------------------\n发件人: "Agent"<agent@example.com>;\n${question}`)).toBe('2');
    expect(stripQuotes('1\n\n发自我的iPhone\n\n> 在 2026年12月1日，10:00，Agent 写道：')).toBe('1');
  });

  it('drops a sign-off under a blank line but keeps a multi-line answer', () => {
    expect(stripQuotes('React, Vue\n\nThanks,\nAlex')).toBe('React, Vue');
    expect(stripQuotes('1: askseam\n2: Vue\n3: yes')).toBe('1: askseam\n2: Vue\n3: yes');
  });
});

describe('replyTextOf: HTML-only replies', () => {
  async function html(body: string): Promise<string> {
    const raw = `From: alex@example.com\r\nTo: reply@reply.example.com\r\nSubject: Re: q\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${body}`;
    return replyTextOf(await simpleParser(raw, { skipHtmlToText: true }));
  }

  it('Outlook on the web: cuts at <hr> and divRplyFwdMsg, leaving no dash line to read as a custom answer', async () => {
    const outlook =
      '<html><body><div style="font-family: Aptos">Vue</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">' +
      '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Agent &lt;agent@example.com&gt;<br><b>Sent:</b> Tuesday, December 1, 2026 10:00<br><b>Subject:</b> Which framework?</font></div>' +
      '<div>Which framework?<br>1. React (Recommended)<br>2. Vue</div></body></html>';
    expect(await html(outlook)).toBe('Vue');
  });

  it('Outlook desktop: a bare <hr> before the header block', async () => {
    expect(await html('<div class="WordSection1"><p class="MsoNormal">deny: not on a Friday<o:p></o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt"><p><b>From:</b> Agent</p></div></div><p>Tool: deploy</p></div>')).toBe('deny: not on a Friday');
    expect(await html('<p>approve</p><hr><p><b>From:</b> Agent<br><b>Sent:</b> today</p><p>Tool: deploy</p>')).toBe('approve');
  });

  it('Gmail, Apple Mail and Thunderbird HTML: cut at their quote markup', async () => {
    expect(await html('<div dir="ltr">2</div><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">On Tue, Dec 1, 2026 at 10:00 AM Agent &lt;agent@example.com&gt; wrote:<br></div><blockquote class="gmail_quote">Which framework?</blockquote></div>')).toBe('2');
    expect(await html('<html><body dir="auto">React<br><br><div dir="ltr">Sent from my iPhone</div><div dir="ltr"><br><blockquote type="cite">On 1 Dec 2026, at 10:00, Agent &lt;agent@example.com&gt; wrote:<br><br></blockquote></div><blockquote type="cite">Which framework?</blockquote></body></html>')).toBe('React');
    expect(await html('<p>1</p><div class="moz-cite-prefix">On 12/1/26 10:00 AM, Agent wrote:<br></div><blockquote type="cite" cite="mid:x">Which framework?</blockquote>')).toBe('1');
  });
});
