// The optional key file of the job. It must be private to its owner, a regular file (no
// symbolic link) and hold one well-formed token; the token itself is never printed.

import fs from 'node:fs';
import { TOKEN_PATTERN } from '../../applications/token.js';
import { JobError } from './errors.js';
import { readBoundedFile } from './files.js';

export const TOKEN_FILE_MAX_BYTES = 256 * 1024;

export function readTokenFile(file: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    throw new JobError('token_file', `the token file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  if (stat.isSymbolicLink()) throw new JobError('token_file', `the token file ${file} is a symbolic link; point --token-file at the file itself`);
  // Permission bits mean nothing on Windows; there the file's ACL is the owner's business.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new JobError('token_file', `the token file ${file} can be read or written by group or others; run chmod 600 ${file}`);
  }
  const text = readBoundedFile(file, TOKEN_FILE_MAX_BYTES, 'token_file').toString('utf8').trim();
  if (!TOKEN_PATTERN.test(text)) throw new JobError('token_file', `the token file ${file} does not hold an application token (fe_ followed by 43 base64url characters)`);
  return text;
}
