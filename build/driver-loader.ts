/**
 * Runtime half of build/driver-bundles.ts, bundled into dist/portcullis.cjs: evaluates a database driver
 * bundled on its own (mysql2, mongodb) from its bundle asset, the first time MikroORM's dialect for that
 * database asks for it. Its `require` loads Node's built-in modules, as the main bundle's does; the optional
 * packages the drivers probe inside try/catch (kerberos, snappy, ...) are absent there as in the main bundle.
 */
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { readBundleAssetText } from './bundle-assets.ts';

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

export function driverAssetName(packageName: string): string {
  return `driver-${packageName}.cjs`;
}

export function loadDriverAsset(packageName: string): unknown {
  const filename = driverAssetName(packageName);
  const source = readBundleAssetText(filename);
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename }).runInThisContext() as CommonJsWrapper;
  const module = { exports: {} as unknown };
  wrapper(module.exports, createRequire(import.meta.filename), module, import.meta.filename, import.meta.dirname);
  return module.exports;
}
