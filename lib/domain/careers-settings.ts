/** The careers site's settings (lib/store/careers.ts): read and changed by admins, each change audited with what it changed. */
import type { CareersSettingsBody } from '../api/careers-settings';
import { NotFoundError } from '../errors';
import { getCareersSettings, saveCareersSettings } from '../store/careers';
import { auditBy, type SessionPrincipal } from './principal';

export interface CareersSettingsView extends CareersSettingsBody {
  workspace_name: string;
}

async function read(tenantId: string, consistent = false): Promise<CareersSettingsView> {
  const s = await getCareersSettings(tenantId, consistent);
  if (!s) throw new NotFoundError('workspace');
  return {
    careers_name: s.careers_name,
    careers_logo_url: s.careers_logo_url,
    careers_privacy_url: s.careers_privacy_url,
    workspace_name: s.name,
  };
}

export const getCareersSettingsOf = (p: SessionPrincipal) => read(p.tenantId, true);

/** Replaces the three settings; a PUT that changes nothing writes nothing (and records nothing). */
export async function updateCareersSettings(p: SessionPrincipal, body: CareersSettingsBody): Promise<CareersSettingsView> {
  const before = await read(p.tenantId, true);
  const fields = ['careers_name', 'careers_logo_url', 'careers_privacy_url'] as const;
  const changed = fields.filter((f) => before[f] !== body[f]);
  if (!changed.length) return before;
  const patch = Object.fromEntries(changed.map((f) => [f, body[f]]));
  await saveCareersSettings(
    p.tenantId,
    patch,
    auditBy(
      p,
      'settings.careers_changed',
      { type: 'workspace', id: p.tenantId },
      changed.map((f) => ({ field: f, before: before[f], after: body[f] })),
    ),
  );
  return { ...before, ...patch };
}
