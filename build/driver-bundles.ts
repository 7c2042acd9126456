/**
 * esbuild plugin: the drivers of MySQL/MariaDB (mysql2, with iconv-lite's code pages) and MongoDB (mongodb,
 * bson, whatwg-url) are bundled on their own into bundle assets (build/bundle-assets.ts) instead of into
 * the main bundle. They are about 1.8 of its 6.3 MiB, which every start reads and V8 keeps in its heap as
 * source, while a server runs on one database: SQLite and PostgreSQL never load them, MySQL and MongoDB
 * load theirs when MikroORM's dialect first requires it (build/driver-loader.ts).
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ASSETS_DIR } from './bundle-assets.ts';
import { driverAssetName } from './driver-loader.ts';

export const SEPARATE_DRIVERS = ['mysql2', 'mongodb'] as const;

const LOADER = join(import.meta.dirname, 'driver-loader.ts');
const NAMESPACE = 'separate-driver';
const FILTER = new RegExp(`^(${SEPARATE_DRIVERS.join('|')})$`);

/** `common`: the main bundle's options (target, minification, externals, import.meta handling). */
export function separateDrivers(common: BuildOptions): Plugin {
  return {
    name: 'separate-drivers',
    setup(outer) {
      outer.onResolve({ filter: FILTER }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      outer.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `const { loadDriverAsset } = require(${JSON.stringify(LOADER)});\nmodule.exports = loadDriverAsset(${JSON.stringify(args.path)});`,
        loader: 'js',
        resolveDir: import.meta.dirname,
      }));
      outer.onEnd(async (result) => {
        const outfile = outer.initialOptions.outfile;
        if (result.errors.length > 0 || outer.initialOptions.write === false || !outfile) return;
        const assets = join(dirname(outfile), ASSETS_DIR);
        mkdirSync(assets, { recursive: true });
        for (const driver of SEPARATE_DRIVERS) {
          await build({
            ...common,
            stdin: { contents: `module.exports = require(${JSON.stringify(driver)});`, resolveDir: import.meta.dirname, loader: 'js' },
            outfile: join(assets, driverAssetName(driver)),
            bundle: true,
            metafile: false,
            plugins: [],
          });
        }
      });
    },
  };
}
