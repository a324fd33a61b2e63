-- Trigram indexes serve the case-insensitive substring search on schema names (contract §4).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
