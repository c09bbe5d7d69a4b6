/** One leaf failure of an instance: where, which keyword, and a sentence for people. */
export interface Issue {
  /** JSONPath-like pointer into the instance: `$`, `$.count`, `$.items[2].name`, `$["odd key"]`. */
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}
