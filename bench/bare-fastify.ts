/**
 * The anchor of bench/validate.ts: the same fastify package with nothing on it but one POST route that
 * parses the JSON body (Fastify's default parser) and answers `{is_valid: true, claims}` with the claims our
 * server answered for the same token, so both sides send the same bytes. No logger, hooks or plugins: what
 * it measures is the floor a Fastify route costs on this machine. Run by bench/validate.ts as a child process
 * of the same Node binary; it prints `listening <port>` once ready.
 *
 * Usage: node bench/bare-fastify.ts <path> (claims as JSON in the BARE_FASTIFY_CLAIMS environment variable)
 */
import Fastify from 'fastify';

async function main(): Promise<void> {
  const path = process.argv[2] ?? '/v1/validate_jwt_token';
  const claims = JSON.parse(process.env.BARE_FASTIFY_CLAIMS ?? '{}') as Record<string, unknown>;
  const app = Fastify({ logger: false });
  app.post(path, async () => ({ is_valid: true, claims }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
