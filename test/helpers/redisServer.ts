import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './freePort.js';
import { waitFor } from './waitFor.js';

/**
 * A throwaway redis-server on a random port, for outage tests: the shared Redis on 6379
 * must never be stopped. Nothing is persisted, so a restart comes back empty.
 */
export interface RedisServer {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: the connection drops at once */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the connection stays up but nothing answers */
  pause(): void;
  resume(): void;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitFor(() => accepts(port), `redis-server on port ${port} to accept connections`);
    },
    async kill() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGKILL');
      await exited;
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
  await server.start();
  return server;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
