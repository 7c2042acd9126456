/**
 * A real local HTTP server standing in for a Twilio-style SMS API: it records every request (method,
 * path, basic-auth credentials, form fields) and answers 201 with a message resource, or whatever status
 * a test asks for next. Point a server at it with `--twilio-api-url <sink.url>`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedSms {
  method: string;
  path: string;
  contentType: string;
  /** Decoded from the Authorization: Basic header. */
  username?: string;
  password?: string;
  form: Record<string, string>;
}

export interface SmsSink {
  readonly url: string;
  readonly requests: RecordedSms[];
  /** The next reply answers this status and JSON body instead of 201. */
  failNext(status: number, body: Record<string, unknown>): void;
  /** The --twilio-* flags that point a server at this sink. */
  flags(): string[];
  close(): Promise<void>;
}

function basicAuth(header: string | undefined): { username?: string; password?: string } {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match) return {};
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? { username: decoded } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export async function startSmsSink(): Promise<SmsSink> {
  const requests: RecordedSms[] = [];
  let nextFailure: { status: number; body: Record<string, unknown> } | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        ...basicAuth(req.headers.authorization),
        form,
      });
      const failure = nextFailure;
      nextFailure = undefined;
      const status = failure?.status ?? 201;
      const body = failure?.body ?? { sid: `SM${requests.length}`, status: 'queued', to: form.To, from: form.From, body: form.Body };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, body) {
      nextFailure = { status, body };
    },
    flags: () => ['--twilio-api-url', `http://127.0.0.1:${port}`, '--twilio-account-sid', 'AC1', '--twilio-api-key', 'key', '--twilio-api-secret', 'sms-secret', '--twilio-sender', '+15550000000'],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
