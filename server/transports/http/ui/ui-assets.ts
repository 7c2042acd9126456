/**
 * The built frontends (build/ui.ts: dist/ui/manifest.json and the files it lists), read from the single
 * executable's assets (`ui/<path>` in its pack, build/bundle-assets.ts, read in place) or, for the bundle
 * or the sources run by plain node, from dist/ui on disk. Only paths listed in the manifest are ever read, so a request path never reaches
 * the file system (no traversal). Loaded on the first UI request, not at start.
 */
import { isSea } from 'node:sea';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSeaAsset } from '../../../../build/bundle-assets.ts';

/** One entry of dist/ui/manifest.json (written by build/ui.ts). */
export interface UiFile {
  /** Content-Type header. */
  type: string;
  /** Strong ETag (quoted). */
  etag: string;
  /** Content-hashed name under assets/: Cache-Control immutable for a year. */
  immutable: boolean;
  /** A brotli copy exists as `<path>.br`. */
  br: boolean;
  size: number;
}

export interface UiAssets {
  /** The manifest entry of `key` (e.g. "app/index.html"), or undefined. */
  file(key: string): UiFile | undefined;
  /** The bytes of a listed file, or of its brotli copy. */
  read(key: string, brotli?: boolean): Buffer;
}

const MANIFEST = 'manifest.json';

/** dist/ui beside the bundle (dist/portcullis.cjs), or under the repository root for the sources. */
function diskRoot(): string | undefined {
  const candidates = [join(import.meta.dirname, 'ui'), join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'ui')];
  return candidates.find((dir) => existsSync(join(dir, MANIFEST)));
}

/** undefined when no UI was built into this server (`npm run build` makes it). */
export function openUiAssets(): UiAssets | undefined {
  let readBytes: (path: string) => Buffer;
  if (isSea()) {
    if (!readSeaAsset(`ui/${MANIFEST}`)) return undefined;
    readBytes = (path) => {
      const bytes = readSeaAsset(`ui/${path}`);
      if (!bytes) throw new Error(`the executable carries no UI file ${path}`);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    };
  } else {
    const root = diskRoot();
    if (!root) return undefined;
    readBytes = (path) => readFileSync(join(root, path));
  }
  const files = (JSON.parse(readBytes(MANIFEST).toString('utf8')) as { files: Record<string, UiFile> }).files;
  const listed = new Map(Object.entries(files));
  return {
    file: (key) => listed.get(key),
    read(key, brotli = false) {
      if (!listed.has(key)) throw new Error(`not a UI file: ${key}`);
      return readBytes(brotli ? `${key}.br` : key);
    },
  };
}
