import { Router, type Application, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
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

/**
 * Basic auth has no lockout of its own: wrong passwords are counted per client address and,
 * past the bound, answered 429 without being checked. In memory, per process: the board is an
 * operator's page, and a guesser spread over processes is still bounded by their number.
 */
function failedAuthThrottle(maxFailures: number): RequestHandler {
  return rateLimit({
    windowMs: 15 * 60_000,
    limit: maxFailures,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    handler: (_req, res) => {
      res.setHeader('Retry-After', '900');
      res.status(429).json({
        status: false,
        message: 'Too many failed sign-ins to the queue board. Please retry later.',
        code: 'RATE_LIMITED',
      });
    },
  });
}

export interface QueueBoardOptions {
  user?: string | undefined;
  password?: string | undefined;
  /** Off by default: the board shows jobs but cannot retry, promote or remove them. */
  writable: boolean;
  maxFailures: number;
}

/** The queue board, bull-board (docs/api.md#operational-routes): only mounted when ADMIN_USER and ADMIN_PASSWORD are both set. */
export function queueBoardRoute(queue: Queue, options: QueueBoardOptions): Router | null {
  const { user, password } = options;
  if (!user || !password) return null;
  const adapter = new ExpressAdapter();
  adapter.setBasePath('/admin/queues');
  createBullBoard({
    queues: [new BullMQAdapter(queue, { readOnlyMode: !options.writable })],
    serverAdapter: adapter,
  });
  // bull-board's adapter is an Express app of its own, which would announce itself.
  const board = adapter.getRouter() as Application;
  board.disable('x-powered-by');
  const router = Router();
  router.use(
    '/admin/queues',
    failedAuthThrottle(options.maxFailures),
    basicAuth(user, password),
    board,
  );
  return router;
}
