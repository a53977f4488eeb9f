-- Baseline of schema 'alert': Flyway creates the schema; the service's tables arrive in later versions.
SELECT 1;
