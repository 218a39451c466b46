// Secrets the server makes for itself on first use and keeps in the database,
// so that every instance of a deployment shares them with no configuration.
import { randomBytes } from 'node:crypto';
import { db } from '../db/client.ts';

const cache = new Map<string, string>();

export async function serverSecret(name: string): Promise<string> {
  const cached = cache.get(name);
  if (cached) return cached;
  // Whoever inserts first wins; everyone then reads the same value.
  await db.serverSecret.createMany({ data: [{ name, value: randomBytes(32).toString('base64url') }], skipDuplicates: true });
  const { value } = await db.serverSecret.findUniqueOrThrow({ where: { name } });
  cache.set(name, value);
  return value;
}
