/**
 * The few parts of `pg` (which ships no types; MikroORM's PostgreSQL driver uses it underneath) that this
 * server names itself: the client class of pg-lost-client.ts, and the clients and pools that
 * test/storage/store-unavailable.test.ts opens to capture the driver's real errors.
 */
declare module 'pg' {
  export interface ConnectionOptions {
    host?: string;
    port?: number;
    user?: string;
    database?: string;
    connectionTimeoutMillis?: number;
  }

  export interface QueryResult {
    rows: any[];
  }

  export class Client {
    constructor(options?: ConnectionOptions);
    connect(): Promise<void>;
    query(text: string): Promise<QueryResult>;
    end(): Promise<void>;
  }

  export interface PoolClient {
    query(text: string): Promise<QueryResult>;
    release(destroy?: boolean): void;
  }

  export class Pool {
    constructor(options?: ConnectionOptions & { max?: number });
    connect(): Promise<PoolClient>;
    query(text: string): Promise<QueryResult>;
    end(): Promise<void>;
  }

  const pg: { Client: typeof Client; Pool: typeof Pool };
  export default pg;
}
