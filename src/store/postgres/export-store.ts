/** The bulk-export jobs in PostgreSQL (migration set 'exports'); every statement on the primary. */
import type pg from 'pg';
import { INSERT_COLUMNS, jobOfRow, progressAssignments, rowValues, type ExportRow } from '../export-rows.ts';
import type { ExportJobStore } from '../exports.ts';

/**
 * The export store on a PostgreSQL pool whose database the 'exports' migrations have
 * reached. Closing it leaves the pool open: its owner ends it.
 */
export function postgresExportStore(pool: pg.Pool): ExportJobStore {
  return {
    async insert(job) {
      const values = rowValues(job);
      await pool.query(
        `INSERT INTO export_jobs (${INSERT_COLUMNS}) VALUES (${values.map((_v, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    },
    async get(id) {
      const { rows } = await pool.query<ExportRow>('SELECT * FROM export_jobs WHERE id = $1', [id]);
      return rows[0] === undefined ? undefined : jobOfRow(rows[0]);
    },
    async update(id, change, from) {
      const { sets, values } = progressAssignments(change, (i) => `$${i}`);
      if (sets.length === 0) return true;
      values.push(id);
      let sql = `UPDATE export_jobs SET ${sets.join(', ')} WHERE id = $${values.length}`;
      if (from !== undefined) {
        values.push([...from]);
        sql += ` AND state = ANY($${values.length})`;
      }
      const { rowCount } = await pool.query(sql, values);
      return (rowCount ?? 0) > 0;
    },
    async inStates(states) {
      const { rows } = await pool.query<ExportRow>(
        'SELECT * FROM export_jobs WHERE state = ANY($1) ORDER BY created_at, id',
        [[...states]],
      );
      return rows.map(jobOfRow);
    },
    async activeCount(accountId) {
      const { rows } = await pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM export_jobs WHERE account_id = $1 AND state IN ('queued', 'running')",
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async finishedBefore(before) {
      const { rows } = await pool.query<ExportRow>(
        "SELECT * FROM export_jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < $1",
        [before],
      );
      return rows.map(jobOfRow);
    },
    async remove(id) {
      await pool.query('DELETE FROM export_jobs WHERE id = $1', [id]);
    },
    close: () => Promise.resolve(),
  };
}
