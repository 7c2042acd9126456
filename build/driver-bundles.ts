/**
 * esbuild plugin: packages that most servers never load are bundled on their own into bundle assets
 * (build/bundle-assets.ts) instead of into the main bundle, which every start reads and V8 keeps in its
 * heap as source:
 * - the drivers of MySQL/MariaDB (mysql2, with iconv-lite's code pages) and MongoDB (mongodb, bson,
 *   whatwg-url), loaded when MikroORM's dialect for that database first requires them;
 * - nodemailer (the first mail over SMTP), ioredis (--redis-url), OpenFGA's DSL parser with ANTLR (the
 *   first model written as DSL), @simplewebauthn/server (the first passkey ceremony) and @node-saml/node-saml
 *   (the first organization SAML response), each imported lazily by the module that uses it.
 * A package can name subpaths the server imports directly (the DSL parser's generated parser class, which
 * common/fga-sll-prediction.ts adjusts): they come from the same asset, evaluated once, so they are the very
 * objects the package itself uses (build/driver-loader.ts).
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ASSETS_DIR } from './bundle-assets.ts';
import { PACKAGE_ROOT, driverAssetName } from './driver-loader.ts';

/** Package name -> the subpaths imported from it besides its root (PACKAGE_ROOT). */
export const SEPARATE_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  mysql2: [],
  mongodb: [],
  nodemailer: [],
  ioredis: [],
  '@openfga/syntax-transformer': ['dist/gen/OpenFGAParser.js'],
  // Passkeys: the library and its ASN.1/X.509 packages, loaded by the first WebAuthn ceremony.
  '@simplewebauthn/server': [],
  // Organization SAML sign-in: the SP's response validator (xml-crypto, xmldom, xml2js), loaded by the first
  // SAML response; its XML helpers come from the same evaluation.
  '@node-saml/node-saml': ['lib/xml.js'],
  // The SAML identity provider (modules/saml-idp): the XML parser of AuthnRequests and metadata, the
  // signer of responses, and the certificate maker of its keys (with the Reflect polyfill it needs), each
  // loaded by the first use that needs it.
  '@xmldom/xmldom': [],
  'xml-crypto': [],
  '@peculiar/x509': [],
  'reflect-metadata': [],
};

const LOADER = join(import.meta.dirname, 'driver-loader.ts');
const NAMESPACE = 'separate-driver';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The specifier -> [package, subpath] for every import the plugin answers. */
function specifiers(): Map<string, readonly [string, string]> {
  const found = new Map<string, readonly [string, string]>();
  for (const [name, subpaths] of Object.entries(SEPARATE_PACKAGES)) {
    found.set(name, [name, PACKAGE_ROOT]);
    for (const subpath of subpaths) found.set(`${name}/${subpath}`, [name, subpath]);
  }
  return found;
}

/** `common`: the main bundle's options (target, minification, externals, import.meta handling). */
export function separateDrivers(common: BuildOptions): Plugin {
  const known = specifiers();
  const filter = new RegExp(`^(${[...known.keys()].map(escapeRegExp).join('|')})$`);
  return {
    name: 'separate-drivers',
    setup(outer) {
      outer.onResolve({ filter }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      outer.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const [name, subpath] = known.get(args.path)!;
        return {
          contents: `const { loadDriverAsset } = require(${JSON.stringify(LOADER)});\nmodule.exports = loadDriverAsset(${JSON.stringify(name)}, ${JSON.stringify(subpath)});`,
          loader: 'js',
          resolveDir: import.meta.dirname,
        };
      });
      outer.onEnd(async (result) => {
        const outfile = outer.initialOptions.outfile;
        if (result.errors.length > 0 || outer.initialOptions.write === false || !outfile) return;
        const assets = join(dirname(outfile), ASSETS_DIR);
        mkdirSync(assets, { recursive: true });
        for (const [name, subpaths] of Object.entries(SEPARATE_PACKAGES)) {
          const members = [`${JSON.stringify(PACKAGE_ROOT)}: require(${JSON.stringify(name)})`];
          for (const subpath of subpaths) members.push(`${JSON.stringify(subpath)}: require(${JSON.stringify(`${name}/${subpath}`)})`);
          await build({
            ...common,
            stdin: { contents: `module.exports = { ${members.join(', ')} };`, resolveDir: import.meta.dirname, loader: 'js' },
            outfile: join(assets, driverAssetName(name)),
            bundle: true,
            metafile: false,
            plugins: [],
          });
        }
      });
    },
  };
}
