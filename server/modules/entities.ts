/**
 * Every MikroORM entity of the server: those of each module in modules/index.ts MODULES, in that order
 * (the single executable cannot discover folders, docs/architecture.md#the-single-executable).
 */
import { MODULES } from './index.ts';

export const ENTITIES = MODULES.flatMap((module) => module.entities);
