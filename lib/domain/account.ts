/**
 * A member's own settings that are theirs alone to change: their time zone. The console shows
 * times in it, and their scorecard reminders come at 9:00 in it (lib/domain/interview-reminders.ts
 * reads it when a reminder is due, so a change counts for interviews booked before it).
 */
import { UnauthorizedError } from '../errors';
import { logger } from '../logger';
import { setUserTimeZone } from '../store/users';
import type { SessionPrincipal } from './principal';

export async function setOwnTimeZone(p: SessionPrincipal, zone: string | null): Promise<{ time_zone: string | null }> {
  if (!(await setUserTimeZone(p.tenantId, p.userId, zone))) throw new UnauthorizedError('session is no longer valid');
  logger.info('time zone set', { cleared: zone === null });
  return { time_zone: zone };
}
