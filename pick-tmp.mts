import { openReadOnly } from './src/store/sqlite/open.ts';
import { runQuery } from './src/engine/run-query.ts';
import { queryShapes } from './bench/query-shapes.ts';
const db = openReadOnly(process.argv[2]!);
const shapes = queryShapes(db);
for (const [name, make] of shapes.slice(0, 2)) { const t = make(0); console.log(name, t); console.log(JSON.stringify(runQuery(db, t, {dslVersion:2})._stats)); }
console.log(db.prepare('SELECT year, count(*) FROM publications GROUP BY year ORDER BY year DESC LIMIT 12').all());
