/**
 * The single executable's files other than its main script (build/bundle-assets.ts's assets and the built
 * UIs) travel as one SEA asset, a pack, rather than one asset each. Node reads every asset's name when the
 * executable starts, and each name sits next to its file's bytes in the blob: with some sixty assets that
 * touched sixty places of the mapped blob, and the kernel maps 64 KiB around each page fault of a file
 * mapping, so about 4 MiB of the blob stayed resident in every process though no UI had been served. One
 * pack has one name, and its index is read on first use.
 *
 * Layout: a 4-byte little-endian length, that many bytes of JSON index `{ "<name>": [offset, length] }`
 * with offsets from the end of the index, then the files' bytes.
 */
import { readFileSync } from 'node:fs';

export const PACK_ASSET = 'portcullis.pack';

/** The pack of `files` (name -> path on disk). */
export function writePack(files: Readonly<Record<string, string>>): Buffer {
  const index: Record<string, [number, number]> = {};
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [name, path] of Object.entries(files)) {
    const bytes = readFileSync(path);
    index[name] = [offset, bytes.length];
    parts.push(bytes);
    offset += bytes.length;
  }
  const json = Buffer.from(JSON.stringify(index), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  return Buffer.concat([length, json, ...parts]);
}

/** A reader of a pack: the bytes of a file as a view into `pack` (no copy), or undefined. */
export function openPack(pack: ArrayBuffer): (name: string) => Uint8Array | undefined {
  const view = new DataView(pack);
  const indexLength = view.getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(new Uint8Array(pack, 4, indexLength))) as Record<string, [number, number]>;
  const dataStart = 4 + indexLength;
  return (name) => {
    const entry = Object.hasOwn(index, name) ? index[name] : undefined;
    return entry ? new Uint8Array(pack, dataStart + entry[0], entry[1]) : undefined;
  };
}
