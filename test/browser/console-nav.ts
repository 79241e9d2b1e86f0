/**
 * The console's page heading, navigation and sign-in form, as the console's browser files
 * (console.test.ts, console-team.test.ts) drive them.
 */
import type { Page } from 'playwright-core';

/** The pages under the Settings menu. */
const SETTINGS = ['API tokens', 'Webhooks', 'Members', 'Pipeline', 'Audit log', 'API docs'];

export const headingOf = (on: Page, name: string | RegExp) => on.getByRole('heading', { level: 1, name });

/**
 * A link of the navigation: the main one, or for a settings page the Settings menu (opened first
 * with Settings in the main navigation when the page shown is not a settings page).
 */
export async function navLink(on: Page, name: string) {
  const main = on.getByRole('navigation', { name: 'Main' });
  if (!SETTINGS.includes(name)) return main.getByRole('link', { name, exact: true });
  const menu = on.getByRole('navigation', { name: 'Settings' });
  if ((await menu.count()) === 0) {
    await main.getByRole('link', { name: 'Settings', exact: true }).click();
    await menu.waitFor();
  }
  return menu.getByRole('link', { name, exact: true });
}

/** Fill in the sign-in form and send it. */
export async function signInOn(on: Page, email: string, password: string) {
  await on.getByLabel('Email').fill(email);
  await on.getByLabel('Password', { exact: true }).fill(password);
  await on.getByRole('button', { name: 'Sign in' }).click();
}
