/** The slice of a pino logger this module writes to, so tests and scripts can pass anything. */
export interface WebpageLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const silentLogger: WebpageLogger = {
  debug() {},
  info() {},
  warn() {},
};
