// Loads the JSON-Schema-Test-Suite and classifies each test against the reviewed expectations.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialect } from '../../src/protocol/dialect.ts';
import type { Refused } from '../../src/protocol/outcome.ts';
import type { Refusal } from '../../src/protocol/refusal.ts';

/** The suite's folders and the dialect each one tests. */
export const suiteDialects: readonly { readonly folder: string; readonly dialect: Dialect }[] = [
  { folder: 'draft2020-12', dialect: '2020-12' },
  { folder: 'draft2019-09', dialect: '2019-09' },
  { folder: 'draft7', dialect: 'draft-07' },
  { folder: 'draft6', dialect: 'draft-06' },
  { folder: 'draft4', dialect: 'draft-04' },
];

export interface SuiteGroup {
  readonly folder: string;
  readonly dialect: Dialect;
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

/** Every group of the required tests (top-level files; `optional/` is not required). */
export function loadSuite(dir: string): SuiteGroup[] {
  const groups: SuiteGroup[] = [];
  for (const { folder, dialect } of suiteDialects) {
    const files = readdirSync(join(dir, folder))
      .filter((name) => name.endsWith('.json'))
      .sort();
    for (const file of files) {
      const parsed = JSON.parse(readFileSync(join(dir, folder, file), 'utf8')) as Omit<SuiteGroup, 'folder' | 'dialect' | 'file'>[];
      for (const group of parsed) groups.push({ ...group, folder, dialect, file });
    }
  }
  return groups;
}

/** A reviewed entry: this group (or every group of the file, `"*"`) is refused with this code, for this reason. */
export interface Expectation {
  readonly folder: string;
  readonly file: string;
  readonly group: string;
  readonly code: Refusal['code'];
  readonly why: string;
}

export type Outcome = 'pass' | 'fail' | 'refused';

/** One group's result, with whether it is what the expectations say. */
export interface GroupResult {
  readonly group: SuiteGroup;
  readonly outcome: Refused | { readonly status: 'checked'; readonly failed: readonly string[]; readonly passed: number };
}

/** The per-dialect figures and everything that is not as reviewed. */
export interface SuiteReport {
  readonly byDialect: Map<string, { pass: number; fail: number; refused: number; refusedExpected: number }>;
  /** Wrong verdicts, and refusals nobody reviewed. */
  readonly silent: string[];
  /** Expectations that no longer match anything (a fix landed, or the suite changed). */
  readonly stale: string[];
}

/** Classifies results against the expectation list. */
export function classify(results: readonly GroupResult[], expectations: readonly Expectation[]): SuiteReport {
  const byDialect: SuiteReport['byDialect'] = new Map();
  const silent: string[] = [];
  const used = new Set<Expectation>();
  for (const { group, outcome } of results) {
    const figures = byDialect.get(group.folder) ?? { pass: 0, fail: 0, refused: 0, refusedExpected: 0 };
    byDialect.set(group.folder, figures);
    const name = `${group.folder}/${group.file} › ${group.description}`;
    if (outcome.status === 'refused') {
      figures.refused += group.tests.length;
      const matches = expectations.filter(
        (e) => e.folder === group.folder && e.file === group.file && (e.group === '*' || e.group === group.description),
      );
      const expected = matches.find((e) => e.code === outcome.refusal.code) ?? matches[0];
      if (expected && expected.code === outcome.refusal.code) {
        used.add(expected);
        figures.refusedExpected += group.tests.length;
      } else {
        silent.push(
          `${name}: refused (${outcome.refusal.code}: ${outcome.refusal.message}) but not reviewed${expected ? ` (expected ${expected.code})` : ''}`,
        );
      }
      continue;
    }
    figures.pass += outcome.passed;
    figures.fail += outcome.failed.length;
    for (const test of outcome.failed) silent.push(`${name} › ${test}: wrong verdict`);
  }
  const stale = expectations.filter((e) => !used.has(e)).map((e) => `${e.folder}/${e.file} › ${e.group}: expected ${e.code}, not seen`);
  return { byDialect, silent, stale };
}
