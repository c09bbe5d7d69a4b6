// Probes `GET /healthz` of an edge under test, one request at a time, and records how long the edge was silent.

export interface Probe {
  /** Longest time between a probe being sent and its answer (a failed probe counts until it fails). */
  readonly longestSilence: () => number;
  readonly failures: () => number;
  /** Probes answered so far. */
  readonly answered: () => number;
  /** What the failed probes got (a status or an error name), in order; at most 20 kept. */
  readonly failureReasons: () => readonly string[];
  /** Longest silence of one probe within `from`..`to` (performance.now() times), counting only its wait inside them. */
  silenceDuring(from: number, to: number): number;
  /** Probes that failed within `from`..`to` (by when their answer or error came). */
  failuresDuring(from: number, to: number): number;
  stop(): Promise<void>;
}

/** Probes `${url}/healthz` every `intervalMs` (250 ms), one probe in flight at a time. */
export function probeHealth(url: string, intervalMs = 250): Probe {
  let running = true;
  let answered = 0;
  const reasons: string[] = [];
  /** When each failed probe ended. */
  const failedAt: number[] = [];
  const fail = (reason: string): void => {
    failedAt.push(performance.now());
    if (reasons.length < 20) reasons.push(reason);
  };
  /** [sent, silence] of every probe. */
  const samples: [number, number][] = [];
  let inFlight: number | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      inFlight = sent;
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        if (response.ok) answered++;
        else fail(`HTTP ${response.status}`);
      } catch (error) {
        fail(String((error as Error).name ?? error));
      }
      samples.push([sent, performance.now() - sent]);
      inFlight = undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs);
      });
    }
  })();
  return {
    longestSilence: () => Math.max(0, ...samples.map(([, silence]) => silence), inFlight === undefined ? 0 : performance.now() - inFlight),
    failures: () => failedAt.length,
    answered: () => answered,
    failureReasons: () => reasons,
    silenceDuring(from, to) {
      // The part of each probe's wait that falls inside [from, to]: a probe answered just after `from` (it waited
      // behind the previous request) does not charge that wait to this window.
      const overlap = (sent: number, end: number): number => Math.max(0, Math.min(end, to) - Math.max(sent, from));
      let longest = inFlight === undefined ? 0 : overlap(inFlight, performance.now());
      for (const [sent, silence] of samples) longest = Math.max(longest, overlap(sent, sent + silence));
      return longest;
    },
    failuresDuring: (from, to) => failedAt.filter((at) => at >= from && at <= to).length,
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
