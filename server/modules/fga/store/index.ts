/** FGA storage: the memory and SQL stores, the --fga-store factory, entities and read helpers. */
export { createMemoryFgaStore, type MemoryFgaStoreOptions } from './memory-store.ts';
export { createSqlFgaStore, type SqlFgaStoreOptions } from './sql-store.ts';
export { createFgaStore, FGA_ENTITIES, type CreateFgaStoreOptions } from './create-fga-store.ts';
export { FgaModel, type FgaModelRow } from './fga-model.entity.ts';
export { FgaTuple, type FgaTupleRow } from './fga-tuple.entity.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseReadFilter, resolvePageSize } from './read-query.ts';
export { sortableId, SORTABLE_ID_LENGTH, SORTABLE_ID_PATTERN } from './sortable-id.ts';
export { COLUMN_LIMITS } from './tuple-rows.ts';
