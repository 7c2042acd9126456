/**
 * Runtime half of build/native-addons.ts, bundled into dist/portcullis.cjs: loads a native addon (.node)
 * whose bytes are embedded in the bundle. Neither the single executable nor the bundle has node_modules to
 * load it from, and a shared library can only be loaded from a file (stack-notes.md, "Single executable").
 *
 * The bytes go to a fresh private folder (mkdtemp, 0700) under the OS temporary folder, are loaded with
 * process.dlopen, and the folder is removed at once: the loaded library stays mapped, nothing is left
 * behind, and no other user can plant a library at a predictable path for us to load.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function loadEmbeddedAddon(fileName: string, embedded: Uint8Array | { default: Uint8Array }): unknown {
  const bytes = embedded instanceof Uint8Array ? embedded : embedded.default;
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-addon-'));
  try {
    const file = join(dir, fileName);
    writeFileSync(file, bytes, { mode: 0o700 });
    const module = { exports: {} as unknown };
    process.dlopen(module, file);
    return module.exports;
  } catch (err) {
    throw new Error(
      `cannot load the embedded native addon ${fileName} from ${tmpdir()} (a noexec temporary folder? TMPDIR picks another): ${(err as Error).message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
