import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpService } from '@fanpilot/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MailOffError, mailModeOf, outboxDirOf, readOutbox } from './index.ts';

describe('mailer', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpService>>;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await startSmtpService();
    dataDir = await mkdtemp(join(tmpdir(), 'fp-mail-'));
  });
  afterAll(async () => {
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('picks SMTP when SMTP_URL is set, the outbox outside production, and nothing in production', () => {
    expect(mailModeOf({ NODE_ENV: 'production', SMTP_URL: smtp.url })).toBe('smtp');
    expect(mailModeOf({ NODE_ENV: 'development' })).toBe('outbox');
    expect(mailModeOf({ NODE_ENV: 'test' })).toBe('outbox');
    expect(mailModeOf({ NODE_ENV: 'production' })).toBe('off');
  });

  it('sends through a real SMTP server with nodemailer (text and html)', async () => {
    const mailer = createMailer({
      NODE_ENV: 'production',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Fanpilot <hi@fp.test>',
    });
    const sent = await mailer.send({
      to: 'fan@example.com',
      subject: 'Your link to Ada’s chat',
      text: 'Open https://fp.test/restore/abc',
      html: '<p>Open <a href="https://fp.test/restore/abc">your chat</a></p>',
    });
    expect(sent.messageId).toMatch(/@/);
    const mail = await smtp.waitFor((m) => m.to.includes('fan@example.com'));
    expect(mail.subject).toBe('Your link to Ada’s chat');
    expect(mail.from).toBe('hi@fp.test');
    expect(mail.text.trim()).toBe('Open https://fp.test/restore/abc');
    expect(mail.html).toContain('href="https://fp.test/restore/abc"');
    mailer.close();
  });

  it('throws when the server refuses the message (the queue retries it)', async () => {
    const mailer = createMailer({ NODE_ENV: 'production', SMTP_URL: smtp.url });
    smtp.refuseNext(1);
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(/451|later/);
    await mailer.send({ to: 'a@example.com', subject: 'second try', text: 't' });
    expect((await smtp.waitFor((m) => m.subject === 'second try')).to).toEqual(['a@example.com']);
    mailer.close();
  });

  it('throws on wrong credentials and on a server that is not there', async () => {
    const wrong = createMailer({
      NODE_ENV: 'production',
      SMTP_URL: smtp.url.replace('loopback-secret', 'nope'),
    });
    await expect(wrong.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(/Invalid|535/);
    wrong.close();
    const gone = createMailer({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1' });
    await expect(gone.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow();
    gone.close();
  });

  it('writes each message to the local outbox as an .eml file outside production without SMTP_URL', async () => {
    const mailer = createMailer({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: 'http://localhost:3000',
    });
    expect(mailer.outboxDir).toBe(outboxDirOf(dataDir));
    const sent = await mailer.send({
      to: 'fan@example.com',
      subject: 'Restore your chat',
      text: 'Open http://x/1',
    });
    expect(sent.file?.startsWith(join(dataDir, 'outbox'))).toBe(true);
    const [mail] = await readOutbox(mailer.outboxDir!);
    expect(mail?.raw).toMatch(/^From: Fanpilot <no-reply@localhost>$/m);
    expect(mail?.raw).toMatch(/^To: fan@example\.com$/m);
    expect(mail?.raw).toMatch(/^Subject: Restore your chat$/m);
    expect(mail?.raw).toContain('Open http://x/1');
  });

  it('refuses to send in production without SMTP_URL', async () => {
    const mailer = createMailer({ NODE_ENV: 'production' });
    expect(mailer.mode).toBe('off');
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
      MailOffError,
    );
  });
});
