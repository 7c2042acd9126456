/**
 * The `pg` client class of MikroORM's PostgreSQL pool: a client whose connection is lost while it is checked
 * out gives itself back to the pool at once (docs/deployment.md#when-the-database-is-down).
 *
 * Why: Kysely releases a transaction's connection only after a successful COMMIT or ROLLBACK
 * (ControlledTransaction in kysely's kysely.js), and MikroORM swallows the failed ROLLBACK of a dead
 * connection. Each transaction in flight when the database went away so kept one of the pool's clients
 * checked out forever: after as many as the pool holds (10), every request waited for a client until the
 * pool's timeout, even once the database was back, and closing the storage waited forever too.
 *
 * `pg-pool` hands a client out by assigning `client.release`; this class keeps that function and makes it
 * answer once: a lost connection calls it with the error (so the pool discards the client and may open
 * another), and the holder's own later call, if any, does nothing instead of throwing pg-pool's "Release
 * called on client which has already been released".
 */
type Release = (err?: Error | boolean) => void;

interface PgClientClass {
  new (options?: unknown): PgClient;
}

interface PgClient {
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
}

export async function releasingOnLossClient(): Promise<PgClientClass> {
  // pg is CommonJS: its Client is on the default export natively, and may be a named one once bundled.
  const pg = (await import('pg')) as unknown as { default?: { Client: PgClientClass }; Client?: PgClientClass };
  const Client = pg.default?.Client ?? pg.Client!;
  return class ReleasingOnLossClient extends Client {
    #poolRelease: Release | undefined;

    constructor(options?: unknown) {
      super(options);
      const giveBack = (err?: Error) => this.#giveBack(err ?? new Error('Connection terminated unexpectedly'));
      this.on('error', giveBack);
      this.on('end', giveBack);
    }

    /** pg-pool's release of the current checkout, answered once. */
    get release(): Release {
      return (err) => this.#giveBack(err);
    }

    set release(poolRelease: Release) {
      this.#poolRelease = poolRelease;
    }

    #giveBack(err?: Error | boolean): void {
      const poolRelease = this.#poolRelease;
      if (!poolRelease) return;
      this.#poolRelease = undefined;
      poolRelease(err);
    }
  };
}
