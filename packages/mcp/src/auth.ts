import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';

/**
 * Requires `Authorization: Bearer <token>` (the MCP SDK's middleware: 401 with
 * `WWW-Authenticate` otherwise). Both sides are hashed first so the comparison takes the same
 * time whatever the guess, its length included.
 */
export function requireToken(token: string): ReturnType<typeof requireBearerAuth> {
  const expected = digest(token);
  return requireBearerAuth({
    verifier: {
      verifyAccessToken(given) {
        if (!timingSafeEqual(digest(given), expected)) {
          return Promise.reject(new InvalidTokenError('Invalid bearer token'));
        }
        // The middleware wants an expiry; the token itself has none, so this request's hour.
        const expiresAt = Math.floor(Date.now() / 1000) + 3600;
        return Promise.resolve({ token: given, clientId: 'xt-mcp', scopes: [], expiresAt });
      },
    },
  });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
