-- Baseline of schema 'billing': Flyway creates the schema; the service's tables arrive in later versions.
SELECT 1;
