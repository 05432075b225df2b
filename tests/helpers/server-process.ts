import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** What the server tells a parent that opened an IPC channel once it is ready (server/serve.ts). */
interface ReadyMessage {
  event: 'ready';
  port: number;
  url: string;
  startMs: Record<string, number>;
}

export interface ServerProcess {
  child: ChildProcess;
  /** The port the server took (it listens on PORT=0 unless told otherwise). */
  port: number;
  url: string;
  /** How long each step of its start took (server/runtime.ts, StartSteps). */
  startMs: Record<string, number>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its exit code once it exits (null when a signal ended it). */
  exited: Promise<number | null>;
}

export interface StartOptions {
  /** The whole environment of the process (nothing is inherited): PORT defaults to 0. */
  env: Record<string, string | undefined>;
  /** The program and its arguments; `node server/main.ts` with this process's node unless given. */
  command?: string;
  args?: string[];
  cwd?: string;
}

const isReady = (message: unknown): message is ReadyMessage => (message as ReadyMessage | null)?.event === 'ready';

/**
 * Starts a server process on any free port and resolves once it says it is ready (over an IPC
 * channel), with the port it took; rejects with what it printed if it exits first. No port is
 * probed beforehand (another process could take it in between), and no deadline is guessed: a
 * loaded machine only makes the start slower, and a server that cannot start says why by exiting.
 */
export function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(options.command ?? process.execPath, options.args ?? ['server/main.ts'], {
    cwd: options.cwd ?? projectRoot,
    env: { PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isReady(message)) return;
      child.off('message', onMessage);
      // The channel stays open (it would end the child's IPC) but no longer holds this process open.
      child.channel?.unref();
      resolve({ child, port: message.port, url: message.url, startMs: message.startMs, output: () => output, exited });
    };
    child.on('message', onMessage);
    child.once('error', (error) => reject(new Error(`The server could not be started: ${error.message}`)));
    void exited.then((code) => {
      child.off('message', onMessage);
      // Streams may still hold the last lines: let them drain before quoting them.
      setImmediate(() =>
        reject(
          new Error(
            `The server exited (${code === null ? `signal ${child.signalCode}` : `code ${code}`}) before it was ready:\n${output.slice(-4000)}`,
          ),
        ),
      );
    });
  });
}
