/**
 * esbuild plugin: embeds native addons (.node files, e.g. @node-rs/argon2's prebuilt N-API binding) in the
 * bundle. esbuild has no loader for .node files, and the single executable could not load one from disk
 * anyway. Whatever import resolves to a .node file (a binding package whose `main` is the .node, or a
 * relative path that exists) becomes a small module that hands the embedded bytes to
 * build/embedded-addon-loader.ts, which writes them to a private temporary folder and process.dlopen()s them.
 * Only bindings installed for the build platform resolve; the other platforms' requires stay unresolved
 * inside their packages' try/catch, as on a normal install.
 */
import type { Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const LOADER = join(import.meta.dirname, 'embedded-addon-loader.ts');
const BYTES_NAMESPACE = 'embedded-addon-bytes';

export function embedNativeAddons(embedded: string[] = []): Plugin {
  return {
    name: 'embed-native-addons',
    setup(build) {
      build.onLoad({ filter: /\.node$/, namespace: 'file' }, (args) => {
        embedded.push(args.path);
        const contents = [
          `const { loadEmbeddedAddon } = require(${JSON.stringify(LOADER)});`,
          `module.exports = loadEmbeddedAddon(${JSON.stringify(basename(args.path))}, require(${JSON.stringify(`${BYTES_NAMESPACE}:${args.path}`)}));`,
        ].join('\n');
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
      build.onResolve({ filter: new RegExp(`^${BYTES_NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(BYTES_NAMESPACE.length + 1),
        namespace: BYTES_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: BYTES_NAMESPACE }, (args) => ({
        contents: readFileSync(args.path),
        loader: 'binary',
      }));
    },
  };
}
