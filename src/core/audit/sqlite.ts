/**
 * better-sqlite3's JavaScript, on its own so that it loads only when a store is opened
 * (local-store.ts imports this lazily). The cold-start bundle includes it (scripts/bundle.mjs):
 * every `run` writes a row, and its ~12 modules cost more to resolve and compile one by one than
 * the row itself. The native addon is loaded by path (local-store.ts).
 */
import Database from 'better-sqlite3'

export { Database }
