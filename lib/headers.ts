/** A request header by name, whatever case the client used (API Gateway passes them as sent). */
export function header(event: { headers?: Record<string, string | undefined> | null }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v ?? undefined;
  return undefined;
}
