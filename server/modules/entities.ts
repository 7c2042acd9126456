/**
 * Every MikroORM entity of the server: those of each module in modules/index.ts MODULES, in that order
 * (the single executable cannot discover folders, stack-notes.md "Single executable").
 */
import { MODULES } from './index.ts';

export const ENTITIES = MODULES.flatMap((module) => module.entities);
