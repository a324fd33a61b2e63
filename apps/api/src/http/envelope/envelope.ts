import type { Response } from 'express';

/** The success envelope every resource route answers with (interface: Response envelope). */
export function sendOk(res: Response, data: unknown, message: string, status = 200): void {
  res.status(status).json({ status: true, message, data });
}

export function sendError(
  res: Response,
  status: number,
  body: { message?: string; code?: string; errors?: { field: string; message: string }[] } & Record<
    string,
    unknown
  >,
): void {
  res.status(status).json({ status: false, ...body });
}
