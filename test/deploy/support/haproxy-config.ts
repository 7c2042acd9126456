/**
 * A small reader of HAProxy's configuration format (HAProxy Configuration Manual §2: sections started by a
 * keyword such as `defaults`, `frontend` or `backend`, then one directive per line, `#` to the end of a line
 * a comment), enough for the deployment examples' consistency tests.
 */
const SECTION_KEYWORDS = new Set(['global', 'defaults', 'frontend', 'backend', 'listen', 'resolvers', 'peers', 'userlist', 'program', 'http-errors', 'ring', 'mailers', 'cache']);

export interface HaproxySection {
  readonly keyword: string;
  readonly name: string;
  /** Each directive as its words, in file order. */
  readonly lines: readonly string[][];
}

export function parseHaproxyConfig(text: string): HaproxySection[] {
  const sections: Array<{ keyword: string; name: string; lines: string[][] }> = [];
  for (const raw of text.split('\n')) {
    const words = raw.replace(/#.*$/, '').trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    if (SECTION_KEYWORDS.has(words[0]!)) {
      sections.push({ keyword: words[0]!, name: words[1] ?? '', lines: [] });
      continue;
    }
    const current = sections.at(-1);
    if (!current) throw new Error(`directive outside any section: ${raw.trim()}`);
    current.lines.push(words);
  }
  return sections;
}

/** The directives starting with the given words, e.g. directives(section, 'option', 'httpchk'). */
export function directives(section: HaproxySection | undefined, ...prefix: string[]): string[][] {
  return (section?.lines ?? []).filter((words) => prefix.every((p, i) => words[i] === p));
}

/** The value following `keyword` in a server or default-server line (e.g. `inter 1s`), or undefined. */
export function serverOption(words: readonly string[], keyword: string): string | undefined {
  const at = words.indexOf(keyword);
  return at < 0 ? undefined : words[at + 1];
}

/** An HAProxy time (HAProxy Configuration Manual §2.5: us, ms, s, m, h, d; milliseconds by default) in ms. */
export function haproxyMilliseconds(value: string): number {
  const match = /^(\d+)(us|ms|s|m|h|d)?$/.exec(value);
  if (!match) throw new Error(`${value} is not an HAProxy time`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms']!;
  return Number(match[1]) * factor;
}
