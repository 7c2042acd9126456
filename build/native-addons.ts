/**
 * esbuild plugin: carries native addons (.node files, e.g. @node-rs/argon2's prebuilt N-API binding) with
 * the bundle. esbuild has no loader for .node files, and the single executable could not load one from disk
 * anyway. Whatever import resolves to a .node file (a binding package whose `main` is the .node, or a
 * relative path that exists) becomes a small module that asks build/embedded-addon-loader.ts for it by name;
 * the file itself is copied to the bundle's assets folder (build/bundle-assets.ts), which build/sea.ts puts
 * into the executable. Only bindings installed for the build platform resolve; the other platforms' requires
 * stay unresolved inside their packages' try/catch, as on a normal install.
 */
import type { Plugin } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ASSETS_DIR } from './bundle-assets.ts';

const LOADER = join(import.meta.dirname, 'embedded-addon-loader.ts');

export function embedNativeAddons(embedded: string[] = []): Plugin {
  return {
    name: 'embed-native-addons',
    setup(build) {
      build.onLoad({ filter: /\.node$/, namespace: 'file' }, (args) => {
        embedded.push(args.path);
        const contents = [
          `const { loadEmbeddedAddon } = require(${JSON.stringify(LOADER)});`,
          `module.exports = loadEmbeddedAddon(${JSON.stringify(basename(args.path))});`,
        ].join('\n');
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
      build.onEnd((result) => {
        const outfile = build.initialOptions.outfile;
        if (result.errors.length > 0 || build.initialOptions.write === false || !outfile) return;
        const assets = join(dirname(outfile), ASSETS_DIR);
        mkdirSync(assets, { recursive: true });
        for (const addon of new Set(embedded)) copyFileSync(addon, join(assets, basename(addon)));
      });
    },
  };
}
