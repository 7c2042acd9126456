/**
 * Runtime half of build/driver-bundles.ts, bundled into dist/portcullis.cjs: evaluates a package bundled on
 * its own (a database driver, nodemailer, ioredis, the DSL parser) from its bundle asset, the first time
 * something asks for it, and only once: the package root and its subpaths come from the one evaluation. Its
 * `require` loads Node's built-in modules, as the main bundle's does; the optional packages the drivers
 * probe inside try/catch (kerberos, snappy, ...) are absent there as in the main bundle.
 */
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { readBundleAssetText } from './bundle-assets.ts';

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** The key of a package's own entry point among the modules its asset exports. */
export const PACKAGE_ROOT = '.';

export function driverAssetName(packageName: string): string {
  // A scoped name's slash would make a folder of the asset name.
  return `driver-${packageName.replace('/', '+')}.cjs`;
}

const evaluated = new Map<string, Record<string, unknown>>();

function evaluate(packageName: string): Record<string, unknown> {
  const filename = driverAssetName(packageName);
  const source = readBundleAssetText(filename);
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename }).runInThisContext() as CommonJsWrapper;
  const module = { exports: {} as unknown };
  wrapper(module.exports, createRequire(import.meta.filename), module, import.meta.filename, import.meta.dirname);
  return module.exports as Record<string, unknown>;
}

/** The module `subpath` of the package (PACKAGE_ROOT for the package itself). */
export function loadDriverAsset(packageName: string, subpath: string = PACKAGE_ROOT): unknown {
  let modules = evaluated.get(packageName);
  if (!modules) {
    modules = evaluate(packageName);
    evaluated.set(packageName, modules);
  }
  if (!(subpath in modules)) throw new Error(`${packageName}: ${subpath} is not in its bundle asset`);
  return modules[subpath];
}
