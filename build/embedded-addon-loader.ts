/**
 * Runtime half of build/native-addons.ts, bundled into dist/portcullis.cjs: loads a native addon (.node)
 * that travels as a bundle asset (build/bundle-assets.ts). Neither the single executable nor the bundle has
 * node_modules to load it from (docs/architecture.md#the-single-executable).
 *
 * Beside a bundle run by plain node, the asset is a file and is loaded where it is. Inside the executable it
 * is bytes, and a shared library can only be loaded from a file: they go to a fresh private folder
 * (mkdtemp, 0700) under the OS temporary folder, are loaded with process.dlopen, and the folder is removed
 * at once: the loaded library stays mapped, nothing is left behind, and no other user can plant a library at
 * a predictable path for us to load.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isSea } from 'node:sea';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleAssetPath, readBundleAsset } from './bundle-assets.ts';

function dlopen(file: string): unknown {
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  return module.exports;
}

export function loadEmbeddedAddon(fileName: string): unknown {
  if (!isSea()) return dlopen(bundleAssetPath(fileName));
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-addon-'));
  try {
    const file = join(dir, fileName);
    writeFileSync(file, readBundleAsset(fileName), { mode: 0o700 });
    return dlopen(file);
  } catch (err) {
    throw new Error(
      `cannot load the embedded native addon ${fileName} from ${tmpdir()} (a noexec temporary folder? TMPDIR picks another): ${(err as Error).message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
