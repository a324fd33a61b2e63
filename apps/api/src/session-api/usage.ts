import { Router } from 'express';
import { addUtcDays } from '../http/listing/calendar-date.ts';
import { validationError } from '../http/errors/errors.ts';
import type { Db } from '@xt/db';
import { usageBySchema, usagePerDay, usageTotals } from '@xt/extractions';
import { principalOf } from '../auth/principal.ts';
import { sendOk } from '../http/envelope/envelope.ts';
import { listQueryOr422 } from '../http/listing/list.ts';

const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

const day = (d: Date) => d.toISOString().slice(0, 10);

/** `GET /usage?startDate&endDate`: dates checked by the same rules as every list filter. */
export function usageRoutes(db: Db): Router {
  const router = Router();
  router.get('/usage', async (req, res) => {
    const q = listQueryOr422(req.query);
    const end = q.endDateExclusive ?? addUtcDays(new Date(`${day(new Date())}T00:00:00Z`), 1);
    const start = q.startDate ?? addUtcDays(end, -DEFAULT_DAYS);
    if ((end.getTime() - start.getTime()) / 86_400_000 > MAX_DAYS)
      throw validationError([
        { field: 'startDate', message: `the range must be at most ${MAX_DAYS} days` },
      ]);
    const { accountId } = principalOf(req);
    const [days, schemas] = await Promise.all([
      usagePerDay(db, accountId, start, end),
      usageBySchema(db, accountId, start, end),
    ]);
    const totals = usageTotals(days);
    sendOk(
      res,
      { startDate: day(start), endDate: day(addUtcDays(end, -1)), days, totals, schemas },
      'Usage retrieved.',
    );
  });
  return router;
}
