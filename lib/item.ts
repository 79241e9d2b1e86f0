/** A stored item as the SDK's document client gives it, and the error of one that is not what its codec expects. */
export type Item = Record<string, unknown>;

export class CorruptItemError extends Error {
  constructor(entity: string, attribute: string) {
    // Names the attribute, never its value: items hold personal data.
    super(`corrupt ${entity} item: attribute ${attribute} is missing or of the wrong type`);
    this.name = 'CorruptItemError';
  }
}
