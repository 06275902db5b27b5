import pino, { type Logger } from 'pino';

/** Process-level logger (start-up, shutdown, CLI); requests log through Fastify's child loggers. */
export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino({ level }, pino.destination(destination));
}
