import { Router, type Application, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { sameSecret } from '@xt/telemetry';

function basicAuth(user: string, password: string): RequestHandler {
  const expected = Buffer.from(`${user}:${password}`);
  return (req, res, next) => {
    const given = /^Basic\s+(\S.*)$/i.exec(req.get('authorization') ?? '')?.[1];
    const decoded = given ? Buffer.from(given, 'base64') : Buffer.alloc(0);
    if (sameSecret(decoded, expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"');
    res
      .status(401)
      .json({ status: false, message: 'Queue board credentials required.', code: 'UNAUTHORIZED' });
  };
}

/** The queue board, bull-board (docs/api.md#operational-routes): only mounted when ADMIN_USER and ADMIN_PASSWORD are both set. */
export function queueBoardRoute(queue: Queue, user?: string, password?: string): Router | null {
  if (!user || !password) return null;
  const adapter = new ExpressAdapter();
  adapter.setBasePath('/admin/queues');
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter: adapter });
  // bull-board's adapter is an Express app of its own, which would announce itself.
  const board = adapter.getRouter() as Application;
  board.disable('x-powered-by');
  const router = Router();
  router.use('/admin/queues', basicAuth(user, password), board);
  return router;
}
