// A field's issue in words for the person filling in the form: "City: at least 1 character" instead of the engine's
// "$.city: got 0 characters, want at least 1". The engine's sentence and path stay the data (src/engine/issues, not
// changed here); this is only their translation, from the keyword and the bound the engine already quoted.
import type { Issue } from '../protocol/issue.ts';
import { pathBelow } from './field-path.ts';

/** JSON types as a person would name the value they should type. */
const typeWords: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'an object',
  null: 'empty',
};

/** What the engine said was wanted: the part after its last `, want ` (`got 12, want at most 10` → `at most 10`). */
const wanted = (message: string): string | undefined => /, want (.+)$/.exec(message)?.[1];

/** `at least 1` + `character` → `at least 1 character`; `at most 3` → `at most 3 characters`. */
function counted(bound: string | undefined, unit: string): string | undefined {
  if (bound === undefined) return undefined;
  const count = /(\d+)$/.exec(bound)?.[1];
  return count === undefined ? undefined : `${bound} ${count === '1' ? unit : `${unit}s`}`;
}

/** The requirement an issue states, in words; undefined when the keyword has none of its own (the engine's words stand). */
function requirement(issue: Issue): string | undefined {
  const { keyword, message } = issue;
  if (message.startsWith('property name: ')) return undefined;
  switch (keyword) {
    case 'required':
      return 'required';
    case 'minLength':
    case 'maxLength':
      return counted(wanted(message), 'character');
    case 'minItems':
    case 'maxItems':
      return counted(wanted(message), 'item');
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
    case 'enum':
      return wanted(message);
    case 'const': {
      const only = wanted(message);
      return only === undefined ? undefined : `only ${only}`;
    }
    case 'type': {
      const types = wanted(message)?.split(' or ');
      if (types === undefined || !types.every((type) => type in typeWords)) return undefined;
      return types.map((type) => typeWords[type]).join(' or ');
    }
    case 'pattern': {
      const pattern = /^does not match the pattern (.+)$/.exec(message)?.[1];
      return pattern === undefined ? undefined : `must match the pattern ${pattern}`;
    }
    case 'format': {
      const format = / is not a valid (.+)$/.exec(message)?.[1];
      return format === undefined ? undefined : `a valid ${format}`;
    }
    case 'uniqueItems':
      return 'no item twice';
    default:
      return undefined;
  }
}

/**
 * One issue of the field labelled `label` (whose own path is `field`), said under that label: `City: at least 1
 * character`, `Tags, item 2: text`. An issue the page has no words of its own for keeps the engine's sentence.
 */
export function issueInWords(issue: Issue, label: string, field: string): string {
  const below = pathBelow(issue.path, field);
  const where = below === '' ? label : `${label}, ${below}`;
  return `${where}: ${requirement(issue) ?? issue.message}`;
}
