/**
 * A real DNS server on 127.0.0.1 (UDP) for tests: answers TXT and A queries from records the test sets,
 * encoded by hand after RFC 1035 section 4.1 (header, question, answer resource records), 3.3.14 (TXT RDATA:
 * one or more <character-string>s, each a length octet and up to 255 octets) and 3.4.1 (A RDATA: the four
 * octets of the address). A name without records answers NXDOMAIN; `mode` makes it answer SERVFAIL or not
 * answer at all, to test a resolver that fails or hangs. The server counts the queries it received, so a
 * test can prove that a refused call asked nothing.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

const TYPE_A = 1;
const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

export type DnsMode = 'answer' | 'servfail' | 'silent';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, the value for --dns-servers. */
  readonly address: string;
  /** Sets the TXT records at `name`: each record is a string or its character-strings (chunks). */
  setTxt(name: string, records: ReadonlyArray<string | readonly string[]>): void;
  /** Sets the IPv4 addresses (A records) of `name`. */
  setA(name: string, addresses: readonly string[]): void;
  clear(name: string): void;
  mode: DnsMode;
  /** Queries received since start, by lowercase name. */
  readonly queries: string[];
  close(): Promise<void>;
}

interface Question {
  name: string;
  type: number;
  /** Offset just past the question section. */
  end: number;
}

function readQuestion(message: Buffer): Question | undefined {
  if (message.length < 12 || message.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    const length = message[offset];
    if (length === undefined || length > 63) return undefined;
    offset += 1;
    if (length === 0) break;
    labels.push(message.subarray(offset, offset + length).toString('latin1'));
    offset += length;
  }
  if (offset + 4 > message.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset), end: offset + 4 };
}

function characterStrings(record: string | readonly string[]): Buffer {
  const chunks = typeof record === 'string' ? splitChunks(record) : record;
  return Buffer.concat(chunks.map((chunk) => {
    const bytes = Buffer.from(chunk, 'utf8');
    if (bytes.length > 255) throw new Error('a TXT character-string holds at most 255 octets');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  }));
}

function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 255) chunks.push(text.slice(i, i + 255));
  return chunks.length ? chunks : [''];
}

function ipv4Bytes(address: string): Buffer {
  return Buffer.from(address.split('.').map((octet) => Number(octet)));
}

function reply(query: Buffer, question: Question, rcode: number, rdatas: readonly Buffer[], type = TYPE_TXT): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR=1, AA=1, RD copied from the query, RA=1, then the response code (section 4.1.1).
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const answers = rdatas.map((rdata) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // a pointer to the question's name at offset 12 (section 4.1.4)
    rr.writeUInt16BE(type, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(0, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const socket: Socket = createSocket('udp4');
  const records = new Map<string, ReadonlyArray<string | readonly string[]>>();
  const aRecords = new Map<string, readonly string[]>();
  const queries: string[] = [];
  const server = {
    address: '',
    mode: 'answer' as DnsMode,
    queries,
    setTxt(name: string, txt: ReadonlyArray<string | readonly string[]>) {
      records.set(name.toLowerCase(), txt);
    },
    setA(name: string, addresses: readonly string[]) {
      aRecords.set(name.toLowerCase(), addresses);
    },
    clear(name: string) {
      records.delete(name.toLowerCase());
      aRecords.delete(name.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message: Buffer, peer: RemoteInfo) => {
    const question = readQuestion(message);
    if (!question) return;
    queries.push(question.name);
    if (server.mode === 'silent') return;
    let answer: Buffer;
    if (server.mode === 'servfail') answer = reply(message, question, RCODE_SERVFAIL, []);
    else {
      const txt = records.get(question.name);
      const a = aRecords.get(question.name);
      if (!txt && !a) answer = reply(message, question, RCODE_NXDOMAIN, []);
      else if (question.type === TYPE_A) answer = reply(message, question, 0, (a ?? []).map(ipv4Bytes), TYPE_A);
      else answer = reply(message, question, 0, question.type === TYPE_TXT ? (txt ?? []).map(characterStrings) : []);
    }
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}
