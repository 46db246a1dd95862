// Test support: a fresh PostgreSQL schema of its own for one test file, so files that run at the same time on the
// one test database (PLUMBLINE_TEST_DATABASE_URL) never see each other's rows. Returns the URL whose connections
// use that schema (libpq `options=-c search_path=…`, which node-postgres passes on).
import pg from "pg";

export async function freshPostgresSchema(databaseUrl: string, schema: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.href;
}
