/** Bundles the demo page and the validation Web Worker into edge/public. */
export function buildPage(options?: { quiet?: boolean }): Promise<void>;
