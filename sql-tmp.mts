import { openReadOnly } from './src/store/sqlite/open.ts';
import { prepareQuery, SqliteQueryContext } from './src/engine/run-query.ts';
import { performance } from 'node:perf_hooks';
const db = openReadOnly(process.argv[2]!);
const ctx = new SqliteQueryContext(db);
const text = process.argv[3]!;
const p = prepareQuery(text, { dslVersion: 2 });
if (p.kind !== 'plan') throw new Error('not a plan');
const c = ctx.compile(p.plan);
const stmts: Array<[string, any]> = [['count', c.count]];
for (const o of c.outputs as any[]) stmts.push([o.kind, o.page ?? o.statement]);
for (const [k, s] of stmts) {
  console.log(`--- ${k}: ${s.text}\n    params ${JSON.stringify(s.params).slice(0,200)}`);
  for (const r of db.prepare('EXPLAIN QUERY PLAN ' + s.text).all(...s.params) as any[]) console.log('   ', r.detail);
  const st = db.prepare(s.text);
  st.all(...s.params);
  const t = performance.now(); const rows = st.all(...s.params); console.log(`    ${(performance.now()-t).toFixed(1)} ms, ${rows.length} rows`);
}
