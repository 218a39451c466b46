import { defineConfig } from 'prisma/config';

// DATABASE_URL is read directly (not with env()) so that `prisma generate`
// also works when no database is configured.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/atrium' },
});
