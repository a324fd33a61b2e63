// Any 8-4-4-4-12 hex string: what PostgreSQL's uuid type accepts, not only RFC 4122 versions.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
