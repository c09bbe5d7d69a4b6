// In-memory CLI I/O for running the CLI in process.
import type { CliIo } from '../../src/cli/cli-io.ts';

export interface MemoryIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** Files by name; `-` is standard input. A missing file fails like the file system does (ENOENT). */
export function memoryIo(files: Record<string, string>): MemoryIo {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    readText: async (file) => {
      const text = files[file];
      if (text === undefined) throw Object.assign(new Error(`no such file ${file}`), { code: 'ENOENT' });
      return text;
    },
    stdinIsTty: false,
    out: () => out,
    err: () => err,
  };
}
