import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files that hold keys or tokens (the devnet's private keys, the local API key, the stack file):
 * readable by their owner only. Written aside with mode 0600 and renamed over the old one, so a
 * file left world-readable by an earlier version is replaced, not reused with its old mode, and a
 * reader never sees half a file. Their folder is made owner-only too.
 */
export async function writeSecretFile(file: string, contents: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents, { mode: 0o600 });
  // The mode given at creation is masked by the umask; set it outright.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** writeSecretFile, for the launcher's synchronous paths. */
export function writeSecretFileSync(file: string, contents: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** A folder of the stack's state, owner-only (it holds the secret files and the stores' data). */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
