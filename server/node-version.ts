/**
 * The Node.js release Portcullis runs on, checked before anything else loads. The server needs Node 24:
 * node:sqlite's DatabaseSync (the default database), TypeScript type stripping for `node server/main.ts`,
 * and the runtime the single executable and the tests are built and run with (package.json "engines" and
 * the "node" dev dependency say the same). An older Node would otherwise fail half-way, far from the
 * cause (on Node 20: "Cannot destructure property 'DatabaseSync'" when the database opens), so the entry
 * refuses at once with one line that says what to run instead.
 *
 * No imports and nothing newer than ES2020 here: this module must load on the old Node it refuses.
 */
export const REQUIRED_NODE_MAJOR = 24;

/** The one-line refusal for a Node release older than REQUIRED_NODE_MAJOR, or undefined when it is recent enough. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return undefined;
  return `Portcullis needs Node.js ${REQUIRED_NODE_MAJOR} or newer (this is ${version}): run \`npm start\`, which uses the Node ${REQUIRED_NODE_MAJOR} that \`npm ci\` installs, or use dist/portcullis, which brings its own`;
}

/** Exits with status 1 and the one-line refusal when this process runs on an older Node. */
export function requireSupportedNode(): void {
  const problem = nodeVersionProblem(process.version);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
