/** Binds a built app to its three listeners; port 0 picks a free port (tests). */
import { ServerCredentials } from '@grpc/grpc-js';
import type { App } from './app.ts';

export interface BoundPorts {
  http: number;
  grpc?: number;
  metrics: number;
}

export async function listenApp(app: App): Promise<BoundPorts> {
  const { config } = app.deps;
  await app.http.listen({ host: config.host, port: config.httpPort });
  await app.metricsHttp.listen({ host: config.metricsHost, port: config.metricsPort });
  let grpcPort: number | undefined;
  if (app.grpc) {
    const server = app.grpc;
    grpcPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${config.host}:${config.grpcPort}`, ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      ),
    );
  }
  const portOf = (server: App['http']) => {
    const address = server.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  return { http: portOf(app.http), grpc: grpcPort, metrics: portOf(app.metricsHttp) };
}
