/**
 * Files the bundle needs that are not JavaScript to evaluate at start (a native addon, the sandbox worker's
 * script): they travel beside the bundle, in dist/assets/, and inside the single executable as SEA assets
 * (build/sea.ts adds every file of dist/assets/ to the blob). Before, they were base64 text inside the
 * bundle: 2.2 MB of the script V8 keeps in its heap as source, plus the decoded copies.
 *
 * At run time readBundleAsset() takes them from the executable (its one SEA asset, the pack of
 * build/asset-pack.ts, read in place with node:sea getRawAsset, not copied) or, for the bundle run by plain
 * node, from the assets folder beside it. The UIs travel in the same pack (readSeaAsset).
 */
import { getRawAsset, isSea } from 'node:sea';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACK_ASSET, openPack } from './asset-pack.ts';

export const ASSETS_DIR = 'assets';

/** The folder of the running bundle's assets (plain node); the executable's own folder has none. */
export function bundleAssetPath(name: string): string {
  return join(import.meta.dirname, ASSETS_DIR, name);
}

let pack: ((name: string) => Uint8Array | undefined) | undefined;

/** A file the executable carries (`ui/<path>` for the UIs), read in place; undefined if it has none. */
export function readSeaAsset(name: string): Uint8Array | undefined {
  pack ??= openPack(getRawAsset(PACK_ASSET));
  return pack(name);
}

function seaAsset(name: string): Uint8Array {
  const bytes = readSeaAsset(name);
  if (!bytes) throw new Error(`the executable carries no asset ${name}: rebuild it with \`npm run sea\``);
  return bytes;
}

export function readBundleAsset(name: string): Uint8Array {
  return isSea() ? seaAsset(name) : readFileSync(bundleAssetPath(name));
}

export function readBundleAssetText(name: string): string {
  return isSea() ? new TextDecoder().decode(seaAsset(name)) : readFileSync(bundleAssetPath(name), 'utf8');
}
