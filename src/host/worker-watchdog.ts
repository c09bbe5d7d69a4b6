import type { WorkerRequest } from '../protocol/validator-service.ts';
import { firstUnfinished, notStarted, observe, type Pending, type Progress } from './worker-progress.ts';

/** Loading a worker takes longer than a validation may; a separate, generous bound covers start-up. */
export const startupMs = 30_000;

/**
 * The default budget of one compile request: eight validation budgets, and at least two seconds. A legitimate
 * 230 KB tool compiles in 50–170 ms (cold worker); compiling is bounded by the static policy anyway.
 */
export const defaultCompileBudgetMs = (timeBudgetMs: number): number => Math.max(8 * timeBudgetMs, 2000);

/** The watchdog looks at the worker this often while it holds requests (at most; a quarter of small budgets). */
const maxCheckMs = 50;

/** How often the watchdog looks at a worker holding requests, for a validation budget. */
export const checkPeriodMs = (timeBudgetMs: number): number => Math.max(1, Math.min(maxCheckMs, timeBudgetMs / 4));

export interface Budgets {
  readonly timeBudgetMs: number;
  /** Budget of one compile request (`compile`, or `compileTools` with one tool: the host sends one per tool). */
  readonly compileBudgetMs: number;
}

/**
 * Compiling may take longer than validating (a legitimate large schema in a cold worker), so a request that
 * compiles has the compile budget, plus the validation budget when it validates too (a schema sent as an object).
 */
export function budgetOf(request: WorkerRequest, budgets: Budgets): number {
  switch (request.op) {
    case 'compile':
    case 'compileTools':
      return budgets.compileBudgetMs;
    case 'validateElicitation':
      return budgets.compileBudgetMs + budgets.timeBudgetMs;
    case 'validate':
    case 'validateJson':
      return typeof request.schema === 'string' ? budgets.timeBudgetMs : budgets.compileBudgetMs + budgets.timeBudgetMs;
    default:
      return budgets.timeBudgetMs;
  }
}

/**
 * One look of the watchdog at a worker that holds requests: the request it is stuck on, past that request's
 * budget counted from the worker's last progress (started or finished a request), or undefined to look again
 * later. A request the worker is still receiving has the start-up bound instead: receiving a batch is bounded by
 * its size, which the host has just serialized. When everything has finished (the answers are on their way)
 * nothing is blamed and the clock starts over.
 */
export function overdue(progress: Progress, budgets: Budgets, now: () => number): Pending | undefined {
  observe(progress, now);
  const idle = now() - progress.lastActivity;
  if (idle < budgets.timeBudgetMs) return undefined;
  const stuck = firstUnfinished(progress);
  if (stuck === undefined) {
    progress.lastActivity = now();
    return undefined;
  }
  return idle < (notStarted(progress, stuck) ? startupMs : budgetOf(stuck.request, budgets)) ? undefined : stuck;
}

/** What a request the watchdog blamed rejects with (code `TIMEOUT`). */
export function timeoutMessage(request: WorkerRequest, budgets: Budgets): string {
  const what = request.op === 'compile' || request.op === 'compileTools' ? 'compiling' : 'validation';
  return `${what} ran past its ${budgetOf(request, budgets)} ms budget; the worker was restarted`;
}

/** A timer that is re-armed rather than recreated: `refresh()` where the platform has it (Node), else `setTimeout`. */
export interface Ticker {
  /** Fires `tick` once, `periodMs` from now, unless already armed. */
  arm(): void;
  stop(): void;
}

export function createTicker(periodMs: number, tick: () => void): Ticker {
  type Timer = ReturnType<typeof setTimeout> & { refresh?: () => unknown; unref?: () => unknown };
  let timer: Timer | undefined;
  let armed = false;
  let stopped = false;
  const fire = (): void => {
    armed = false;
    tick();
  };
  return {
    arm() {
      if (armed || stopped) return;
      armed = true;
      if (timer !== undefined && typeof timer.refresh === 'function') {
        timer.refresh();
        return;
      }
      timer = setTimeout(fire, periodMs) as Timer;
      // The worker, not the timer, keeps a Node process alive while requests are pending.
      timer.unref?.();
    },
    stop() {
      stopped = true;
      armed = false;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
