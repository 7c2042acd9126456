/**
 * The descriptions of the OpenAPI document (CommonMark, OpenAPI 3.1.1 section 4.3) as React elements, block
 * by block (doc-blocks.ts), with inline `code`. Text becomes text nodes only, never HTML, so a description
 * cannot inject markup into the console.
 */
import type { ReactNode } from 'react';
import { Code, List, Stack, Table, Text, Title } from '@mantine/core';
import { blocksOf, type Block } from './doc-blocks.ts';

/** Inline `code` spans inside one line of text. */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g).filter(Boolean);
  return (
    <>
      {parts.map((part, index) =>
        part.length > 1 && part.startsWith('`') && part.endsWith('`') ? <Code key={index}>{part.slice(1, -1)}</Code> : part,
      )}
    </>
  );
}

function renderBlock(block: Block, index: number): ReactNode {
  switch (block.kind) {
    case 'heading':
      return <Title key={index} order={3} size="h5">{block.text}</Title>;
    case 'paragraph':
      return <Text key={index} size="sm"><InlineText text={block.text} /></Text>;
    case 'list':
      return (
        <List key={index} size="sm" spacing={4}>
          {block.items.map((item, at) => <List.Item key={at}><InlineText text={item} /></List.Item>)}
        </List>
      );
    case 'code':
      return <Code key={index} block>{block.text}</Code>;
    case 'table': {
      const [head = [], ...body] = block.rows;
      return (
        <Table.ScrollContainer key={index} minWidth={480}>
          <Table withTableBorder verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>{head.map((cell, at) => <Table.Th key={at}><InlineText text={cell} /></Table.Th>)}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {body.map((row, at) => (
                <Table.Tr key={at}>{row.map((cell, col) => <Table.Td key={col}><InlineText text={cell} /></Table.Td>)}</Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      );
    }
  }
}

/** A description of the document, block by block. */
export function DocText({ source }: { source: string }) {
  return <Stack gap="sm">{blocksOf(source).map(renderBlock)}</Stack>;
}
