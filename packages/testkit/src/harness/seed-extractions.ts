import type pg from 'pg';

/** The schemas seeded rows belong to: `Invoice schema 0` … `4`, ids ending in 0 … 4. */
export const seededSchemaId = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;

/**
 * Writes `rows` extractions for an account straight into the database (one statement per
 * 50,000 rows), as a large account looks after weeks of use: spread over the last `days` days,
 * newest first, 97% completed and 3% failed, over five schemas. For tests and the benchmark,
 * which need a million-row account in seconds rather than through the API. Nothing is left
 * unfinished: a worker's reconciler would pick such rows up and run them.
 */
export async function seedExtractions(
  pool: pg.Pool,
  accountId: string,
  rows: number,
  days = 30,
): Promise<void> {
  const step = 50_000;
  for (let from = 1; from <= rows; from += step) {
    await pool.query(
      `insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
         source_type, source, model, status, output, total_tokens, charged, created_at,
         updated_at, finished_at, attempts)
       select gen_random_uuid(), $1, ('00000000-0000-4000-8000-00000000000' || (g % 5))::uuid,
         'Invoice schema ' || (g % 5),
         '{"type":"object","properties":{"vendor":{"type":"string"},"total":{"type":"number"}}}'::json,
         'text', 'Invoice ' || g || ' from ACME Corporation. Total due: ' || g || ' EUR',
         'gpt-4.1-mini',
         case when g % 100 < 97 then 'completed' else 'failed' end,
         case when g % 100 < 97 then json_build_object('vendor', 'ACME Corporation', 'total', g) end,
         420, g % 100 < 97,
         now() - g * ($4::int * interval '1 day') / $3::int, now(), now(), 1
       from generate_series($2::int, least($2::int + ${step - 1}, $3::int)) g`,
      [accountId, from, rows, days],
    );
  }
}
