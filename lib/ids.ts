import { v7 } from 'uuid';

/** UUIDv7: sorts by creation time, so key order is "oldest first" and reverse is "newest first". */
export const newId = (): string => v7();

export const nowIso = (): string => new Date().toISOString();
