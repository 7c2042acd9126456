/**
 * Files the bundle needs that are not JavaScript to evaluate at start (a native addon, the sandbox worker's
 * script): they travel beside the bundle, in dist/assets/, and inside the single executable as SEA assets
 * (build/sea.ts adds every file of dist/assets/ to the blob). Before, they were base64 text inside the
 * bundle: 2.2 MB of the script V8 keeps in its heap as source, plus the decoded copies.
 *
 * At run time readBundleAsset() takes them from the executable (node:sea getRawAsset: the bytes are read in
 * place, not copied) or, for the bundle run by plain node, from the assets folder beside it.
 */
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ASSETS_DIR = 'assets';

/** The folder of the running bundle's assets (plain node); the executable's own folder has none. */
export function bundleAssetPath(name: string): string {
  return join(import.meta.dirname, ASSETS_DIR, name);
}

export function readBundleAsset(name: string): Uint8Array {
  return isSea() ? new Uint8Array(getRawAsset(name)) : readFileSync(bundleAssetPath(name));
}

export function readBundleAssetText(name: string): string {
  return isSea() ? getAsset(name, 'utf8') : readFileSync(bundleAssetPath(name), 'utf8');
}
