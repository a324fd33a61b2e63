-- Trigram indexes serve the case-insensitive substring search on schema names (docs/api.md#list-filters).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
