-- Baseline of schema 'collector': Flyway creates the schema; the collector's own tables arrive in later versions.
SELECT 1;
