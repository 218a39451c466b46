import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { sendMail } from '@/lib/mail/mailer.ts';
import { mailText, startSmtpServer } from '../smtp-server.ts';

describe('sendMail', () => {
  let first: Awaited<ReturnType<typeof startSmtpServer>>;
  let second: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    [first, second] = [await startSmtpServer(), await startSmtpServer()];
  });
  afterAll(async () => {
    config.smtpUrl = undefined;
    await Promise.all([first.close(), second.close()]);
  });

  it('sends nothing and answers false without SMTP_URL', async () => {
    config.smtpUrl = undefined;
    expect(await sendMail({ to: 'a@example.com', subject: 'Hi', text: 'Hello' })).toBe(false);
  });

  it('delivers through the configured server, from SMTP_FROM, and follows a changed SMTP_URL', async () => {
    config.smtpUrl = first.url;
    expect(await sendMail({ to: 'b@example.com', subject: 'Greetings', text: 'Hello there' })).toBe(true);
    expect(first.mails).toHaveLength(1);
    expect(first.mails[0].from).toBe('<atrium@localhost>');
    expect(first.mails[0].to).toEqual(['<b@example.com>']);
    expect(mailText(first.mails[0])).toContain('Subject: Greetings');
    expect(mailText(first.mails[0])).toContain('Hello there');

    config.smtpUrl = second.url;
    await sendMail({ to: 'c@example.com', subject: 'Again', text: 'Once more' });
    expect(second.mails.map((m) => m.to)).toEqual([['<c@example.com>']]);
    expect(first.mails).toHaveLength(1);
  });

  it('throws when the server cannot be reached', async () => {
    config.smtpUrl = 'smtp://127.0.0.1:1';
    await expect(sendMail({ to: 'd@example.com', subject: 'x', text: 'y' })).rejects.toThrow();
  });
});
