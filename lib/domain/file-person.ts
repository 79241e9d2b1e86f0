/**
 * The person a file belongs to: 404 when there is none in the caller's workspace (another
 * workspace's person id reads as none), and the condition an attach holds in its transaction.
 */
import { NotFoundError } from '../errors';
import { personExists, personItemCheck } from '../store/files';

export async function requirePerson(tenantId: string, personId: string): Promise<void> {
  if (!(await personExists(tenantId, personId))) throw new NotFoundError('person');
}

export const personCheck = (tenantId: string, personId: string) => personItemCheck(tenantId, personId);
