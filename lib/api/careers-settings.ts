/**
 * The careers site's workspace settings (lib/store/careers.ts): the name its pages show, its logo
 * and the link to the workspace's privacy notice. Admins alone, in the console (session routes).
 */
import * as z from 'zod/mini';
import { dataOf, text } from './fields';
import { DOCS, type Route } from './route';

const httpsUrl = (name: string) =>
  z.url({ protocol: /^https$/, error: `${name} must be an https:// URL` }).check(
    z.maxLength(2048, { error: `${name} must be at most 2048 characters` }),
    z.refine(
      (u) => {
        const url = URL.parse(u);
        return !url?.username && !url?.password;
      },
      { error: `${name} must not contain credentials` },
    ),
  );

/** The whole settings: each field given, null to clear it (the name then falls back to the workspace's). */
export const CareersSettingsBody = z.strictObject({
  careers_name: z.nullable(text('careers_name', 100)),
  careers_logo_url: z.nullable(httpsUrl('careers_logo_url')),
  careers_privacy_url: z.nullable(httpsUrl('careers_privacy_url')),
});
export type CareersSettingsBody = z.output<typeof CareersSettingsBody>;

export const CareersSettings = dataOf(
  z.object({
    careers_name: z.nullable(z.string()),
    careers_logo_url: z.nullable(z.string()),
    careers_privacy_url: z.nullable(z.string()),
    /** The workspace's own name: what the pages show while careers_name is null. */
    workspace_name: z.string(),
  }),
);

export const getCareersSettings = {
  method: 'GET',
  path: '/api/settings/careers',
  handler: 'get-careers-settings',
  auth: 'session',
  role: 'admin',
  access: 'read',
  summary: "The careers site's settings: its name, logo URL and privacy notice URL (admins)",
  status: 200,
  response: CareersSettings,
} as const satisfies Route;

export const updateCareersSettings = {
  method: 'PUT',
  path: '/api/settings/careers',
  handler: 'update-careers-settings',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: "Set the careers site's name, logo URL and privacy notice URL (admins; null clears one)",
  body: CareersSettingsBody,
  ...(DOCS && { errors: { 400: 'A name that is empty or too long, or a URL that is not https (field names it)' } }),
  status: 200,
  response: CareersSettings,
} as const satisfies Route;
