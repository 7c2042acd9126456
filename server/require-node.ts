/**
 * Imported first by the process entry (server/main.ts), for its effect only: ES modules run in the order
 * they are imported, and the bundle (build/bundle.ts) keeps that order, so an old Node is refused here
 * before any other module loads (node-version.ts).
 */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode();
