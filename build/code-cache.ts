/**
 * The server bundle as the single executable carries it: after the end of the executable's ELF image, with a
 * V8 code cache made by starting the server once at build time (build/train-code-cache.ts), read at start by
 * the executable's small main script (build/sea-main.ts). Shared by those two and build/sea.ts, so all three
 * agree on the layout and on the exact text V8 compiles (a code cache is only accepted for the same source).
 *
 * Why not the preparation blob's own main script and code cache (docs/architecture.md#the-single-executable):
 * - Node makes that code cache by compiling the main script without running it, so it holds the outer
 *   function only: every function the start runs was still parsed and compiled at every start. A cache made
 *   after a real start holds them all (measured: CPU to the first /readyz 610 -> 480 ms).
 * - The blob is mapped into the process, and the pages the start reads (the 4.5 MB script, the cache) stay
 *   resident and count in its memory after V8 has copied the script into its heap. Bytes after the ELF
 *   image belong to no loaded segment; read with pread they pass through the page cache and are not mapped.
 *
 * Layout, at the end of the executable: script | code cache | trailer. The trailer is TRAILER_BYTES long:
 * the 8 ASCII bytes of TRAILER_MAGIC, then three unsigned 64-bit little-endian integers: the script's offset
 * in the file, its length and the code cache's length (the cache follows the script; length 0 = none).
 */

export const TRAILER_MAGIC = 'PCLSBNDL';
export const TRAILER_BYTES = 8 + 3 * 8;

/** The parameters of a CommonJS module wrapper, as Node passes them to a main script. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_TAIL = '\n})';

/** The bundle as one function expression: compiling it runs nothing, calling it runs the bundle. */
export function wrapBundle(source: string): string {
  return WRAPPER_HEAD + source + WRAPPER_TAIL;
}

export interface BundleLocation {
  scriptOffset: number;
  scriptLength: number;
  cacheLength: number;
}

export function encodeTrailer(location: BundleLocation): Buffer {
  const trailer = Buffer.alloc(TRAILER_BYTES);
  trailer.write(TRAILER_MAGIC, 0, 'latin1');
  trailer.writeBigUInt64LE(BigInt(location.scriptOffset), 8);
  trailer.writeBigUInt64LE(BigInt(location.scriptLength), 16);
  trailer.writeBigUInt64LE(BigInt(location.cacheLength), 24);
  return trailer;
}

/** undefined when `trailer` is not one (an executable built without the bundle after its image). */
export function decodeTrailer(trailer: Buffer, fileSize: number): BundleLocation | undefined {
  if (trailer.length !== TRAILER_BYTES || trailer.toString('latin1', 0, 8) !== TRAILER_MAGIC) return undefined;
  const location = {
    scriptOffset: Number(trailer.readBigUInt64LE(8)),
    scriptLength: Number(trailer.readBigUInt64LE(16)),
    cacheLength: Number(trailer.readBigUInt64LE(24)),
  };
  const end = location.scriptOffset + location.scriptLength + location.cacheLength;
  return end === fileSize - TRAILER_BYTES ? location : undefined;
}
