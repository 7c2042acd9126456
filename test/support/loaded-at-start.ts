/**
 * Child process of test/http/lazy-start.test.ts: records every module Node loads (module.registerHooks sees
 * both import and require), starts a server as main.ts does (buildApp + listenApp), optionally makes a first
 * GraphQL request and a first gRPC call, and prints the loaded module URLs as one JSON line on stdout.
 *   node test/support/loaded-at-start.ts [--first-requests]
 */
import { registerHooks } from 'node:module';

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});

const { startServer } = await import('./app.ts');
const server = await startServer();
if (process.argv.includes('--first-requests')) {
  const { createGrpcClient } = await import('./grpc-client.ts');
  const graphql = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ query: '{ meta { version } }' }),
  });
  if (graphql.status !== 200) throw new Error(`first GraphQL request answered ${graphql.status}`);
  const grpc = createGrpcClient(server.ports.grpc!);
  await grpc.call('PublicService', 'Meta');
  grpc.close();
}
await server.close();
process.stdout.write(`${JSON.stringify([...loaded])}\n`);
