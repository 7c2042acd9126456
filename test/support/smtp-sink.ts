/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it receives,
 * parsed just enough for tests: headers, subject, and the text and HTML parts (multipart, quoted-printable
 * and base64 decoded). Plain by default; `tls: true` offers STARTTLS with smtp-server's built-in
 * self-signed certificate; `auth` requires a user name and password (accepted without TLS).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  envelope: { from: string; to: string[] };
  /** Lower-case names; folded lines joined; the last value wins. */
  headers: Record<string, string>;
  subject: string;
  text?: string;
  html?: string;
  raw: string;
  /** The user the client authenticated as, if any. */
  user?: string;
}

export interface SmtpSinkOptions {
  auth?: { username: string; password: string };
  tls?: boolean;
}

export interface SmtpSink {
  readonly host: string;
  readonly port: number;
  readonly messages: ReceivedEmail[];
  /** The --smtp-* flags that point a server at this sink. */
  flags(extra?: { senderEmail?: string }): string[];
  /** Resolves with the first message (already received or arriving later) that satisfies `match`. */
  waitFor(match: (message: ReceivedEmail) => boolean, timeoutMs?: number): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

export const SINK_SENDER = 'noreply@portcullis.test';

function decodeEncodedWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, data: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(data, 'base64').toString('utf8');
    return decodeQuotedPrintable(data.replace(/_/g, ' '));
  });
}

function decodeQuotedPrintable(text: string): string {
  const withoutSoftBreaks = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < withoutSoftBreaks.length; i++) {
    const c = withoutSoftBreaks[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(withoutSoftBreaks.slice(i + 1, i + 3))) {
      bytes.push(parseInt(withoutSoftBreaks.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** Collects the text/plain and text/html parts of a MIME entity, descending into multiparts. */
function collectParts(raw: string, into: { text?: string; html?: string }): void {
  const { headers, body } = splitEntity(raw);
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`);
    // sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collectParts(section.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding']);
  if (/^text\/html/i.test(contentType)) into.html ??= decoded;
  else if (/^text\/plain/i.test(contentType)) into.text ??= decoded;
}

export function parseEmail(raw: string, envelope: ReceivedEmail['envelope'], user?: string): ReceivedEmail {
  const { headers } = splitEntity(raw);
  const parts: { text?: string; html?: string } = {};
  collectParts(raw, parts);
  return { envelope, headers, subject: decodeEncodedWords(headers.subject ?? ''), ...parts, raw, user };
}

/** The first http(s) link of a text (an email's text part). */
export function firstLink(text: string | undefined): string | undefined {
  return /https?:\/\/[^\s<>"']+/.exec(text ?? '')?.[0];
}

/** Every href of an HTML part, with `&amp;` turned back into `&`. */
export function hrefsOf(html: string | undefined): string[] {
  return [...(html ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedEmail[] = [];
  const waiters = new Set<{ match: (m: ReceivedEmail) => boolean; resolve: (m: ReceivedEmail) => void }>();
  const disabledCommands = [...(options.tls ? [] : ['STARTTLS']), ...(options.auth ? [] : ['AUTH'])];
  const server = new SMTPServer({
    logger: false,
    disabledCommands,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.username && auth.password === options.auth.password;
      if (!ok) return callback(new Error('invalid user name or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        const message = parseEmail(Buffer.concat(chunks).toString('utf8'), envelope, session.user as string | undefined);
        messages.push(message);
        for (const waiter of waiters) {
          if (waiter.match(message)) {
            waiters.delete(waiter);
            waiter.resolve(message);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    flags(extra = {}) {
      return [
        '--smtp-host', '127.0.0.1',
        '--smtp-port', String(port),
        '--smtp-sender-email', extra.senderEmail ?? SINK_SENDER,
        ...(options.auth ? ['--smtp-username', options.auth.username, '--smtp-password', options.auth.password] : []),
      ];
    },
    waitFor(match, timeoutMs = 5000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: ReceivedEmail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching email arrived within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
