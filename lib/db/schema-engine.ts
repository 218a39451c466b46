// Prisma's schema engine as WebAssembly, for comparing schema.prisma with a
// live database without the native engine that Prisma's CLI downloads.
// Used by the drift test and by `npm run db:diff`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { SchemaEngine } from '@prisma/schema-engine-wasm';

const SCHEMA_PATH = path.resolve(import.meta.dirname, '../../prisma/schema.prisma');
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

// The engine reports a Rust panic's message through this global.
const panic = { message: '' };
(globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
  set_message: (message: string) => {
    panic.message = message;
  },
};

type Queryable = { performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }> };

// The pg adapter rejects Postgres' internal "char" type, which the engine's
// catalog queries return; it is plain text for every purpose here.
function readCharAsText<T extends object>(adapter: T): T {
  const queryable = adapter as unknown as Queryable;
  const performIO = queryable.performIO.bind(queryable);
  queryable.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  return adapter;
}

/** SQL that turns the database at `databaseUrl` into what schema.prisma describes; empty when they agree. */
export async function diffDatabaseToSchema(databaseUrl: string): Promise<string> {
  const schema = await readFile(SCHEMA_PATH, 'utf8');
  const pg = new PrismaPg({ connectionString: databaseUrl });
  const factory = {
    provider: 'postgres' as const,
    adapterName: pg.adapterName,
    connect: async () => readCharAsText(await pg.connect()),
    connectToShadowDb: async () => readCharAsText(await pg.connectToShadowDb()),
  };
  const files = [{ path: SCHEMA_PATH, content: schema }];
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(SCHEMA_PATH) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.exitCode === 0 ? '' : (result.stdout ?? '');
  } catch (error) {
    throw panic.message ? new Error(`Prisma's schema engine failed: ${panic.message}`) : error;
  } finally {
    engine.free();
  }
}
