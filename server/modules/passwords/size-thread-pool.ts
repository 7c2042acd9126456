/**
 * Imported first by the process entry (server/main.ts), for its effect only: sizes libuv's thread pool for
 * password hashing (hashing-pool.ts) before any module queues work on it, since libuv reads
 * UV_THREADPOOL_SIZE once, when the pool starts.
 */
import { sizeThreadPool } from './hashing-pool.ts';

sizeThreadPool();
