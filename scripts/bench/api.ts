/** The API at `url` as a bearer of `token`, for the import benches: a body, when given, is CSV. */
export const tokenApi =
  (url: string, token: string) =>
  async (method: string, path: string, body?: string): Promise<{ data: any }> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body && { 'Content-Type': 'text/csv' }) },
      body,
    });
    return (await res.json()) as { data: any };
  };
