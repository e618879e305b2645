import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the loopback SMTP server accepted, parsed as a mail reader would. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  parsed: ParsedMail;
}

export interface SmtpService {
  /** smtp://user:pass@127.0.0.1:port (what SMTP_URL takes). */
  url: string;
  received: ReceivedMail[];
  /** Refuses the next `count` messages with a temporary failure (451), as a busy server does. */
  refuseNext: (count: number) => void;
  /** Refuses every message to `address` for good (550 No such user), as a server does for a dead mailbox. */
  rejectRecipient: (address: string) => void;
  /** Resolves with the first received message `match` accepts, waiting up to `timeoutMs` (10 s). */
  waitFor: (match: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

/**
 * A loopback SMTP server (the `smtp-server` package: the real protocol, AUTH PLAIN/LOGIN, no TLS) so
 * the real nodemailer transport runs in tests; each accepted message is parsed with `mailparser`.
 */
export async function startSmtpService(
  options: { user?: string; password?: string } = {},
): Promise<SmtpService> {
  const user = options.user ?? 'fanpilot';
  const password = options.password ?? 'loopback-secret';
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refuse = 0;
  const rejected = new Set<string>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      }
      return callback();
    },
    onData(stream, session, callback) {
      if (refuse > 0) {
        refuse--;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            parsed,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    received,
    refuseNext: (count) => {
      refuse = count;
    },
    rejectRecipient: (address) => {
      rejected.add(address.toLowerCase());
    },
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
