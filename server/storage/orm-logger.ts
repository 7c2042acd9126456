/**
 * MikroORM's log output routed to pino. Queries are never logged (their parameters may carry secrets);
 * warnings and errors (a dropped pool connection, for example) reach the server log.
 */
import type { Logger as OrmLogger, LogContext, LoggerNamespace } from '@mikro-orm/core';
import type { Logger } from 'pino';

export function ormLogger(logger: Logger): OrmLogger {
  const child = logger.child({ component: 'storage' });
  return {
    // Plain log lines are debug chatter (discovery, schema); only those marked as warnings or errors matter.
    log: (_namespace: string, message: string, context?: LogContext) => {
      if (context?.level === 'error') child.error(message);
      else if (context?.level === 'warning') child.warn(message);
    },
    error: (_namespace: string, message: string) => child.error(message),
    warn: (namespace: string, message: string) => {
      // MikroORM reports deprecations as warnings; they are for developers, not operators.
      if (namespace === 'deprecated') child.debug(message);
      else child.warn(message);
    },
    logQuery: () => {},
    setDebugMode: () => {},
    isEnabled: (_namespace: LoggerNamespace) => false,
  };
}
