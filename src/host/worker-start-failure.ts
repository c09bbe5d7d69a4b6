// What a worker that failed says about itself: the script it was started from and, when the script never loaded,
// the likely fix. A bundler that moved the host away from the worker script is the usual cause (issue #22).

/** The section of docs/host.md that shows how a bundled host points at the worker script. */
export const bundlerRecipeUrl = 'https://github.com/schemaval/schemaval/blob/main/docs/host.md#bundling-the-worker';

/**
 * The crash reason of a browser Worker's `error` event. A module script that cannot be fetched or parsed (a 404, a
 * page served instead of JavaScript, a cross-origin URL) fires a plain `Event` with no message; an uncaught error
 * inside a running worker fires an `ErrorEvent` with one.
 */
export function browserWorkerErrorReason(url: string, message: string | undefined): string {
  if (message !== undefined && message !== '') return `worker error in ${url}: ${message}`;
  return (
    `worker error: the worker script ${url} did not load (not found, not served as JavaScript, or on another origin); ` +
    `serve the built schemaval/worker/browser at that URL or pass its URL as workerUrl: ${bundlerRecipeUrl}`
  );
}

/**
 * The crash reason of a Node worker's `error` event. `script` is how Node names the entry in "Cannot find module"
 * (its path); when that is what is missing, a bundler most likely moved the host away from it.
 */
export function nodeWorkerErrorReason(script: string, error: { readonly message: string; readonly code?: unknown }): string {
  const missing = error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_MODULE_NOT_FOUND';
  if (!missing || !error.message.includes(script)) return `worker error: ${error.message}`;
  return (
    `worker error: ${error.message}; a bundled host passes spawnNodeWorker({ entry }) the URL of its own bundle of ` +
    `schemaval/worker/node: ${bundlerRecipeUrl}`
  );
}
