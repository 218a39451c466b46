// Structured logs: one JSON object per line on stdout, each naming the node
// that wrote it (a cluster's logs are read together). Callers pass plain
// facts; secrets never reach this function.
import { config } from './config.ts';

type Fields = Record<string, unknown>;

function write(level: 'info' | 'warn' | 'error', msg: string, fields: Fields) {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, node: config.nodeId, msg, ...fields })}\n`);
}

export const log = {
  info: (msg: string, fields: Fields = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Fields = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Fields = {}) => write('error', msg, fields),
};
