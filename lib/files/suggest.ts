/**
 * Suggested fields from a CV's text, for "Add candidate from a CV": the email addresses and phone
 * numbers found in it, in the order they appear, offered to the recruiter and never applied
 * without them. Pure; it holds personal data only in what it returns.
 */

export interface Suggestions {
  emails: string[];
  phones: string[];
}

/** At most this many of each: a CV lists one or two; more are references or an address book. */
export const MAX_SUGGESTIONS = 5;

const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;
/** A run of digits with the separators phone numbers are written with, optionally after + or 00. */
const PHONE = /(?<![\w+])(?:\+|00)?\(?\d[\d\s().\-/]{5,22}\d(?![\w])/g;
/** Year ranges and dates, which look like digit runs: 2019-2023, 2019 – 2023, 2021-03-15, 15.03.2021, 03/15/2021. */
const DATE_LIKE = /^(?:(?:19|20)\d{2}\s*[-–/]\s*(?:19|20)\d{2}|\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;

export function suggestFields(text: string): Suggestions {
  const emails: string[] = [];
  for (const m of text.matchAll(EMAIL)) {
    const email = m[0].replace(/\.+$/, '');
    if (email.includes('..')) continue;
    if (!emails.some((e) => e.toLowerCase() === email.toLowerCase())) emails.push(email);
    if (emails.length >= MAX_SUGGESTIONS) break;
  }
  const phones: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(PHONE)) {
    const raw = m[0].replace(/\s+/g, ' ').trim();
    if (DATE_LIKE.test(raw)) continue;
    const digits = raw.replace(/\D/g, '');
    // E.164 numbers have at most 15 digits; fewer than 7 is an extension, a postcode or a count.
    if (digits.length < 7 || digits.length > 15) continue;
    // A number written without any separator and without + is more often an id than a phone.
    if (!/[+\s().\-/]/.test(raw) && digits.length > 11) continue;
    const key = raw.startsWith('+') || raw.startsWith('00') ? digits.replace(/^00/, '') : digits;
    if (seen.has(key)) continue;
    seen.add(key);
    phones.push(raw);
    if (phones.length >= MAX_SUGGESTIONS) break;
  }
  return { emails, phones };
}
