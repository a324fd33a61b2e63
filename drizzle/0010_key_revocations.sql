-- Every API process caches the keys it has authenticated; this tells them all, when the
-- transaction commits, which key was revoked, deleted or changed (apps/api/src/auth/key-revocations.ts).
-- A trigger rather than the application: keys are revoked by the API, the CLI and by hand.
CREATE FUNCTION api_keys_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changed', OLD.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_announce_change();--> statement-breakpoint
-- Not on last_used_at, which authentication itself updates once a minute per key.
CREATE TRIGGER api_keys_changed AFTER UPDATE OF revoked_at, scope, account_id, hash ON api_keys
  FOR EACH ROW WHEN ((OLD.revoked_at, OLD.scope, OLD.account_id, OLD.hash) IS DISTINCT FROM (NEW.revoked_at, NEW.scope, NEW.account_id, NEW.hash))
  EXECUTE FUNCTION api_keys_announce_change();
