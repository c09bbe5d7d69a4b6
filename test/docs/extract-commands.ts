// The shell commands the docs show, read from their Markdown: fenced blocks (bash/sh/shell, console with `$ `
// prompts, `$ ` lines of untagged blocks, yaml `run:` steps) and, separately, the commands prose names inline.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One command a code block shows, as a reader would type it. */
export interface DocCommand {
  /** Repo-relative Markdown file. */
  readonly file: string;
  /** 1-based line of the command's first line. */
  readonly line: number;
  /** Comments stripped, `\` continuations joined; one part of an `a && b` line. */
  readonly text: string;
  /** Output the docs show under it (`…` stands for lines left out, or inside a line for text left out). */
  readonly shown: readonly string[];
}

/** A command named inline in prose (`npm run bench`, `schemaval lint --url`). */
export interface ProseCommand {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

const shellLanguages = new Set(['bash', 'sh', 'shell', 'zsh']);
const promptLanguages = new Set(['console', 'shell-session', '', 'text']);
const yamlLanguages = new Set(['yaml', 'yml']);

/** README.md and every docs/*.md (not docs/decisions/: records of why, not instructions). */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The text before a shell comment: a `#` at the start or after a blank, outside quotes. */
export function stripComment(line: string): { readonly code: string; readonly comment: boolean } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== undefined) {
      if (char === '\\' && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '\\') i++;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) return { code: line.slice(0, i).trimEnd(), comment: true };
  }
  return { code: line.trimEnd(), comment: false };
}

/** Splits at `&&` outside quotes, so each step of `npm install && npm start` is classified on its own. */
export function splitSteps(text: string): string[] {
  const steps: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '&' && text[i + 1] === '&') {
      steps.push(text.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  steps.push(text.slice(start).trim());
  return steps.filter((step) => step !== '');
}

interface Fence {
  readonly language: string;
  readonly start: number;
  readonly lines: readonly string[];
}

/** Fenced blocks of one Markdown text, with their info string's first word and the line after the fence. */
function fences(text: string): { readonly blocks: Fence[]; readonly prose: { readonly line: number; readonly text: string }[] } {
  const blocks: Fence[] = [];
  const prose: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] as string);
    if (open === null) {
      prose.push({ line: i + 1, text: lines[i] as string });
      continue;
    }
    const [, indent = '', marker = '', language = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as string;
      if (line.trim().startsWith(marker) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({ language: language.toLowerCase(), start: i + 2, lines: body });
    i = j;
  }
  return { blocks, prose };
}

/** Lines ending in `\` joined with the next; returns the joined text and how many lines it took. */
function joinContinued(lines: readonly string[], from: number): { readonly text: string; readonly used: number } {
  let text = '';
  let used = 0;
  for (let i = from; i < lines.length; i++) {
    const { code } = stripComment(lines[i] as string);
    used++;
    if (code.endsWith('\\')) {
      text += `${code.slice(0, -1).trim()} `;
      continue;
    }
    text += code.trim();
    break;
  }
  return { text: text.trim(), used };
}

/** Each `&&` step becomes a command; what the docs show belongs to the last step. */
function commandsOf(file: string, line: number, text: string, shown: readonly string[]): DocCommand[] {
  const steps = splitSteps(text);
  return steps.map((step, index) => ({ file, line, text: step, shown: index === steps.length - 1 ? shown : [] }));
}

/** A bash block: every line is a command; a whole-line comment right after a command without its own comment
 *  shows that command's output (edge.md's `# {"jsonrpc":…} 403`). */
function shellBlock(file: string, block: Fence): DocCommand[] {
  const found: DocCommand[] = [];
  let last: { line: number; text: string; shown: string[]; commented: boolean } | undefined;
  const flush = () => {
    if (last !== undefined) found.push(...commandsOf(file, last.line, last.text, last.shown));
    last = undefined;
  };
  for (let i = 0; i < block.lines.length; ) {
    const raw = (block.lines[i] as string).replace(/^\$ /, '');
    if (raw.trim() === '') {
      flush();
      i++;
      continue;
    }
    if (raw.trimStart().startsWith('#')) {
      if (last !== undefined && !last.commented) last.shown.push(raw.trimStart().replace(/^#\s?/, ''));
      i++;
      continue;
    }
    flush();
    const { text, used } = joinContinued(block.lines, i);
    const commented = block.lines.slice(i, i + used).some((line) => stripComment(line).comment);
    last = { line: block.start + i, text, shown: [], commented };
    i += used;
  }
  flush();
  return found;
}

/** A console block: `$ ` lines are commands, the lines under one (to a blank line or the next prompt) its output. */
function promptBlock(file: string, block: Fence): DocCommand[] {
  const found: DocCommand[] = [];
  for (let i = 0; i < block.lines.length; ) {
    const line = block.lines[i] as string;
    if (!line.startsWith('$ ')) {
      i++;
      continue;
    }
    const { text, used } = joinContinued([line.slice(2), ...block.lines.slice(i + 1)], 0);
    const shown: string[] = [];
    let j = i + used;
    for (; j < block.lines.length; j++) {
      const next = block.lines[j] as string;
      if (next.trim() === '' || next.startsWith('$ ')) break;
      shown.push(next.trimEnd());
    }
    found.push(...commandsOf(file, block.start + i, text, shown));
    i = j;
  }
  return found;
}

/** A yaml block's `run:` steps (a workflow's commands): one-line values, and each line of a `run: |` block. */
function yamlBlock(file: string, block: Fence): DocCommand[] {
  const found: DocCommand[] = [];
  for (let i = 0; i < block.lines.length; i++) {
    const match = /^(\s*)(?:- )?run:\s*(.*)$/.exec(block.lines[i] as string);
    if (match === null) continue;
    const [, indent = '', value = ''] = match;
    if (value !== '|' && value !== '>') {
      found.push(...commandsOf(file, block.start + i, stripComment(value).code, []));
      continue;
    }
    for (let j = i + 1; j < block.lines.length && (block.lines[j] as string).startsWith(`${indent}  `); j++) {
      const code = stripComment(block.lines[j] as string).code.trim();
      if (code !== '') found.push(...commandsOf(file, block.start + j, code, []));
    }
  }
  return found;
}

/** Every command the code blocks of `file` show, in order. */
export function extractCommands(file: string, markdown: string): DocCommand[] {
  return fences(markdown).blocks.flatMap((block) => {
    if (shellLanguages.has(block.language)) return shellBlock(file, block);
    if (promptLanguages.has(block.language)) return promptBlock(file, block);
    if (yamlLanguages.has(block.language)) return yamlBlock(file, block);
    return [];
  });
}

/** Inline code spans in prose that start like a command: `npm run`, `npm start`, `npm test`, `(npx) schemaval`. */
export function extractProseCommands(file: string, markdown: string): ProseCommand[] {
  return fences(markdown).prose.flatMap(({ line, text }) =>
    [...text.matchAll(/`([^`]+)`/g)]
      .map((span) => (span[1] as string).trim())
      // `schemaval edge: starting…` is a log line, not a command: a word must end at a blank or the span's end.
      .filter((span) => /^(npm (run [\w:-]+|start|test)|(npx )?schemaval (--)?[a-z][\w-]*)(\s|$)/.test(span))
      .map((span) => ({ file, line, text: span })),
  );
}

/** Every command of README.md and docs/*.md, code blocks and prose. */
export function documentedCommands(root: string): { readonly blocks: DocCommand[]; readonly prose: ProseCommand[] } {
  const blocks: DocCommand[] = [];
  const prose: ProseCommand[] = [];
  for (const file of docFiles(root)) {
    const markdown = readFileSync(join(root, file), 'utf8');
    blocks.push(...extractCommands(file, markdown));
    prose.push(...extractProseCommands(file, markdown));
  }
  return { blocks, prose };
}
