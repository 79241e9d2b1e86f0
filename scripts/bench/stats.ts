/** The small statistics every bench section prints. */

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The p-th percentile, nearest rank. */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** DynamoDB commands sent, counted by name: `1×GetItem + 1×Query`. */
export const summarize = (sent: string[]) =>
  Object.entries(
    sent.reduce<Record<string, number>>((a, c) => {
      a[c] = (a[c] ?? 0) + 1;
      return a;
    }, {}),
  )
    .map(([c, n]) => `${n}×${c.replace('Command', '')}`)
    .join(' + ');
