/**
 * Process entry: parse flags, refuse bad configuration with a one-line message and a non-zero exit
 * (README "Configuration"), build the app, listen, and shut down gracefully on SIGTERM/SIGINT.
 * CommonJS-safe: no top-level await (the single executable's entry must be CommonJS).
 */
// First: an older Node is refused with one line before any module that needs Node 24 loads.
import './require-node.ts';
// Then: libuv's thread pool is sized for password hashing before any module can start it.
import './modules/passwords/size-thread-pool.ts';
// Then: V8's optimising compiler is held back until the server is built (start-tiering.ts).
import { releaseOptimisation } from './start-tiering.ts';
import { parseConfig, ConfigError } from './config/parse.ts';
import { buildApp, type App } from './app.ts';
import { listenApp } from './listen.ts';
import { isIP } from 'node:net';
import { webauthnEnabled } from './modules/mfa/mfa-flags.ts';

function fail(message: string): never {
  process.stderr.write(`portcullis: ${message}\n`);
  process.exit(1);
}

async function start(argv: string[]): Promise<void> {
  let config;
  try {
    config = parseConfig(argv);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') process.exit(0);
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  let app: App;
  try {
    app = await buildApp(config);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    fail(`cannot open the database (--database-type ${config.databaseType}): ${(err as Error).message.split('\n')[0]}`);
  }
  releaseOptimisation();
  const ports = await listenApp(app).catch((err: Error) => fail(`cannot listen: ${err.message}`));
  app.deps.logger.info({ url: config.url, ...ports, database: config.databaseType }, 'portcullis started');
  if (webauthnEnabled(config) && config.url && isIP(new URL(config.url).hostname.replace(/^\[|\]$/g, ''))) {
    // W3C WebAuthn Level 3 section 5.1.4.1: an RP ID is a registrable domain; browsers refuse an IP address.
    app.deps.logger.warn({ url: config.url }, 'passkeys need a host name in --url: browsers refuse an IP address as the WebAuthn RP ID');
  }
  // Graceful drain (docs/reverse-proxy.md#running-a-fleet): /readyz fails for --shutdown-drain-delay while
  // everything is served, then the listeners close, running work finishes and the process exits 0. The
  // --shutdown-timeout and a second signal exit at once; leases then hand unfinished work to other instances.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      app.deps.logger.warn({ signal }, 'second signal: exiting without waiting for running work');
      process.exit(1);
    }
    stopping = true;
    app.deps.logger.info({ signal, drainDelaySeconds: config.shutdownDrainDelay }, 'shutting down');
    const force = setTimeout(() => {
      app.deps.logger.error({ timeoutSeconds: config.shutdownTimeout }, 'shutdown timed out; exiting without waiting for running work');
      process.exit(1);
    }, config.shutdownTimeout * 1000);
    force.unref();
    app.drain(config.shutdownDrainDelay * 1000).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Configuration is flags only (README "Configuration"). MikroORM reads MIKRO_ORM_* variables on
 * its own when it starts, so they are removed first: nothing in the environment can change the server.
 */
for (const name of Object.keys(process.env)) {
  if (name.startsWith('MIKRO_ORM_')) delete process.env[name];
}

start(process.argv.slice(2)).catch((err: unknown) => fail((err as Error).message ?? String(err)));
