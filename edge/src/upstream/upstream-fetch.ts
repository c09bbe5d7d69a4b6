import type { UpstreamFailure } from '../rpc/gateway-error.ts';

export type UpstreamFetch = { readonly ok: true; readonly response: Response } | ({ readonly ok: false } & UpstreamFailure);

/**
 * Sends one request to the upstream and waits at most `timeoutMs` for its response headers. The fetch gets an
 * AbortSignal, and the wait is a race as well, so even a fetch that ignores the signal cannot hold the gateway.
 * A fetch that throws (refused connection, DNS, TLS) is `upstream_unreachable`; its error text is not passed on.
 * Redirects are never followed: the allow-list names the hosts the gateway may reach, and a 3xx from an allowed
 * upstream must not lead it to another one, so a redirect is `upstream_error` naming the status.
 */
export async function fetchUpstream(doFetch: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<UpstreamFetch> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([
      doFetch(url, { ...init, redirect: 'manual', signal: controller.signal }).then(
        (response) => ({ response }),
        () => 'unreachable' as const,
      ),
      timeout,
    ]);
    if (outcome === 'timeout') {
      controller.abort();
      return { ok: false, code: 'upstream_timeout', message: `the upstream did not answer within ${timeoutMs} ms` };
    }
    if (outcome === 'unreachable') return { ok: false, code: 'upstream_unreachable', message: 'the upstream could not be reached' };
    const { response } = outcome;
    if (response.status >= 300 && response.status < 400) {
      response.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        code: 'upstream_error',
        message: `the upstream redirected (HTTP ${response.status}); the gateway follows no redirects`,
      };
    }
    return { ok: true, response };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** The media type of a Content-Type header, lowercased, without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
