import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

// Sending email, one code path: nodemailer builds every message (headers, MIME, encoding) whether it
// goes to an SMTP server (SMTP_URL) or, outside production without one, to a local outbox of .eml
// files a developer opens with any mail reader. In production without SMTP_URL mail is off, and the
// features that need it say so (`MailMode` 'off'). Callers never send inline: the background `mail`
// role sends queued mail with retries (packages/background), so a slow SMTP server never holds up a
// request.

/** Where mail goes: an SMTP server, the local outbox (never in production), or nowhere (off). */
export type MailMode = 'smtp' | 'outbox' | 'off';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null | undefined;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on alert emails. */
  headers?: Record<string, string> | null | undefined;
}

export interface SentMail {
  messageId: string;
  /** The outbox file it was written to (outbox mode only). */
  file?: string;
}

export interface Mailer {
  readonly mode: MailMode;
  /** The From address every message carries. */
  readonly from: string;
  /** The folder of the local outbox (outbox mode), else null. */
  readonly outboxDir: string | null;
  /** Sends one message now; throws when the server refuses it or cannot be reached (retry later). */
  send: (message: MailMessage) => Promise<SentMail>;
  close: () => void;
}

export interface MailEnv {
  NODE_ENV: 'development' | 'production' | 'test';
  /** smtp://user:pass@host:port or smtps://…; nodemailer's connection URL options apply (?pool=true). */
  SMTP_URL?: string | undefined;
  /** The From header ("Fanpilot <hello@example.com>"); default: Fanpilot <no-reply@ the public host>. */
  MAIL_FROM?: string | undefined;
  DATA_DIR?: string | undefined;
}

/** The local outbox: `<DATA_DIR>/outbox`, one `.eml` file per message. */
export const outboxDirOf = (dataDir: string | undefined) => join(dataDir ?? '.data', 'outbox');

/** How mail is sent with these settings (without building anything). */
export function mailModeOf(env: Pick<MailEnv, 'NODE_ENV' | 'SMTP_URL'>): MailMode {
  if (env.SMTP_URL) return 'smtp';
  return env.NODE_ENV === 'production' ? 'off' : 'outbox';
}

/** The default From address: no-reply at the public origin's host. */
export function defaultFrom(publicOrigin: string | undefined): string {
  let host = 'localhost';
  try {
    if (publicOrigin) host = new URL(publicOrigin).hostname;
  } catch {
    // A bad origin was refused at start-up; localhost is only a fallback.
  }
  return `Fanpilot <no-reply@${host}>`;
}

const fileStamp = () => new Date().toISOString().replace(/[:.]/g, '-');

/** The mailer these settings call for. */
export function createMailer(env: MailEnv & { PUBLIC_ORIGIN?: string | undefined }): Mailer {
  const mode = mailModeOf(env);
  const from = env.MAIL_FROM ?? defaultFrom(env.PUBLIC_ORIGIN);
  if (mode === 'off') {
    return {
      mode,
      from,
      outboxDir: null,
      send: () => Promise.reject(new MailOffError()),
      close: () => {},
    };
  }
  if (mode === 'smtp') {
    const transport = nodemailer.createTransport(env.SMTP_URL!);
    return {
      mode,
      from,
      outboxDir: null,
      async send(message) {
        const info = await transport.sendMail({ from, ...withoutNull(message) });
        const refused = (info.rejected ?? []).length > 0 && (info.accepted ?? []).length === 0;
        if (refused) {
          throw Object.assign(new Error(`the SMTP server refused ${message.to}`), { responseCode: 550 });
        }
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const outboxDir = outboxDirOf(env.DATA_DIR);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let made: Promise<unknown> | null = null;
  let n = 0;
  return {
    mode,
    from,
    outboxDir,
    async send(message) {
      made ??= mkdir(outboxDir, { recursive: true });
      await made;
      const info = await transport.sendMail({ from, ...withoutNull(message) });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = join(outboxDir, `${fileStamp()}-${String(++n).padStart(4, '0')}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

function withoutNull(message: MailMessage) {
  const { html, headers, ...rest } = message;
  return { ...rest, ...(html ? { html } : {}), ...(headers ? { headers } : {}) };
}

/**
 * Whether a send failed for good: the SMTP server answered 5xx (the address does not exist, the
 * mailbox refuses). Such a mail is not retried and its address is noted as bounced; a 4xx or a
 * connection failure is tried again.
 */
export function isPermanentRejection(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Sending while mail is off (production without SMTP_URL): never retried. */
export class MailOffError extends Error {
  constructor() {
    super('Email is off on this server (no SMTP_URL).');
    this.name = 'MailOffError';
  }
}

/** The outbox's messages, oldest first, as raw .eml text (for a developer's tools and tests). */
export async function readOutbox(outboxDir: string): Promise<{ file: string; raw: string }[]> {
  let names: string[];
  try {
    names = (await readdir(outboxDir)).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (name) => ({
      file: join(outboxDir, name),
      raw: await readFile(join(outboxDir, name), 'utf8'),
    })),
  );
}
