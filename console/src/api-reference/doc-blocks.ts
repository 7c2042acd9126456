/**
 * The blocks of a description of the OpenAPI document (CommonMark, OpenAPI 3.1.1 section 4.3), for the
 * subset the server's generator writes: `##` headings, paragraphs, `-` lists with indented continuation
 * lines, fenced code blocks and pipe tables. doc-text.tsx renders them.
 */
export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'table'; rows: string[][] };

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

export function blocksOf(source: string): Block[] {
  const lines = source.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i += 1;
    } else if (line.startsWith('```')) {
      const body: string[] = [];
      for (i += 1; i < lines.length && !lines[i]!.startsWith('```'); i += 1) body.push(lines[i]!);
      blocks.push({ kind: 'code', text: body.join('\n') });
      i += 1;
    } else if (/^#{1,6} /.test(line)) {
      blocks.push({ kind: 'heading', text: line.replace(/^#+ /, '') });
      i += 1;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i += 1) {
        if (!/^\|[\s:|-]+\|$/.test(lines[i]!.trim())) rows.push(cells(lines[i]!));
      }
      blocks.push({ kind: 'table', rows });
    } else if (line.startsWith('- ')) {
      const items: string[] = [];
      for (; i < lines.length && (lines[i]!.startsWith('- ') || lines[i]!.startsWith('  ')); i += 1) {
        if (lines[i]!.startsWith('- ')) items.push(lines[i]!.slice(2));
        else items[items.length - 1] += ` ${lines[i]!.trim()}`;
      }
      blocks.push({ kind: 'list', items });
    } else {
      const text: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== '' && !/^(```|#{1,6} |\||- )/.test(lines[i]!); i += 1) text.push(lines[i]!.trim());
      blocks.push({ kind: 'paragraph', text: text.join(' ') });
    }
  }
  return blocks;
}
