/**
 * The cfworker adapter's id, part of every cache key (the engine's and the host's verdict cache). In a file of its
 * own so that a page's main thread can name it without bundling the validator.
 */
export const cfworkerAdapterId = 'cfworker-4.1.6';
