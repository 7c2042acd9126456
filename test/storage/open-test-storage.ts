/** Opens storage on a test database the way the server does (flags -> Config -> openStorage). */
import { tmpdir } from 'node:os';
import pino from 'pino';
import { parseConfig } from '../../server/config/parse.ts';
import type { Config } from '../../server/config/flags.ts';
import { openStorage, type OpenStorageOptions } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import { baseFlags } from '../support/app.ts';
import { CONTRACT_ENTITIES } from './contract-entities.ts';

export const silentLogger = pino({ level: 'silent' });

export function configFor(flags: string[]): Config {
  return parseConfig([...baseFlags(tmpdir()), ...flags]);
}

export function openTestStorage(flags: string[], options?: OpenStorageOptions): Promise<Storage> {
  return openStorage(configFor(flags), CONTRACT_ENTITIES, silentLogger, options);
}
