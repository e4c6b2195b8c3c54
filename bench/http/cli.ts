/**
 * The real command line, built (packages/cli/dist/bin.js): `skillmount serve` processes for the
 * replicas case, and `skillmount publish`.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CliLocation } from '../stores/store.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const run = promisify(execFile);

export interface ServeProcess {
  url: string;
  stop(): Promise<void>;
}

/** `skillmount serve <location> --port 0 …`; resolves with its URL once it prints it. */
export async function startServe(at: CliLocation, extra: readonly string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', at.location, ...at.args, ...extra, '--port', '0'], {
    env: { ...process.env, ...at.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: skillmount serve ${at.location} did not start in 60 s: ${stderr}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /serving .* at (http:\/\/\S+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench: skillmount serve ${at.location} exited with ${code} before serving: ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `skillmount publish <folder> <location>`; resolves with its summary line (stdout). */
export async function publish(folder: string, at: CliLocation): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, 'publish', folder, at.location, ...at.args], { env: { ...process.env, ...at.env } });
  return stdout.trim();
}
