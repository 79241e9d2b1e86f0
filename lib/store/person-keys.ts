/**
 * The person partition's keys, as the person contract writes them (`T#<tenant>#PERSON#<person>`,
 * the person item `PERSON`). Stand-ins for lib/store/table.ts `keys.person` and
 * `keys.personPartition` until the person core lands; then this file goes.
 */
import { keys, type Key } from './table';

export const personPartition = (tenantId: string, personId: string) => `${keys.tenantPartition(tenantId)}#PERSON#${personId}`;
export const personKey = (tenantId: string, personId: string): Key => ({ PK: personPartition(tenantId, personId), SK: 'PERSON' });
