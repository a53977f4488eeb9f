-- Usage hours: the minute rollups of days older than the minute retention (gpumeter.ledger.retention.minutes),
-- folded per series and hour, so an old window still answers used GPU-hours and usage curves, at hourly
-- resolution. sum, max and samples add up exactly to the minutes they replace; `minutes` counts those minute rows
-- and `minute_mean_sum` adds up their means (sum / samples), which is what a minute-resolution integral over the
-- whole hour adds: an hour's level, minute_mean_sum / 60, times its seconds is the minutes' integral, with a minute
-- that had no sample counting nothing, as before. Monthly partitions are created by the retention job and dropped
-- whole once older than the hour retention (gpumeter.ledger.retention.hours).
CREATE TABLE usage_hour (
    cluster         text             NOT NULL,
    gpu_uuid        text             NOT NULL,
    scope           text             NOT NULL,
    scope_key       text             NOT NULL,
    field           text             NOT NULL,
    hour            timestamptz      NOT NULL,
    sum             double precision NOT NULL,
    max             double precision NOT NULL,
    samples         integer          NOT NULL,
    minutes         integer          NOT NULL,
    minute_mean_sum double precision NOT NULL,
    PRIMARY KEY (cluster, gpu_uuid, scope, scope_key, field, hour),
    CHECK (hour = date_trunc('hour', hour))
) PARTITION BY RANGE (hour);

-- Every usage rollup whatever its resolution: minute rows where the minute retention still keeps them, hour rows
-- before. `at` is the start of the row's span; `mean` is the mean of its samples (a curve's point); `level` is the
-- mean activity over the whole span that an integral multiplies by seconds (for a minute, its mean).
CREATE VIEW usage_rollup AS
SELECT cluster, gpu_uuid, scope, scope_key, field, minute AS at, interval '1 minute' AS span,
       sum, max, samples, sum / samples AS mean, sum / samples AS level
FROM usage_minute
UNION ALL
SELECT cluster, gpu_uuid, scope, scope_key, field, hour, interval '1 hour',
       sum, max, samples, sum / samples, minute_mean_sum / 60
FROM usage_hour;

-- card_activity now reads both resolutions: each row is a span (a minute, or an hour older than the minute
-- retention) starting at `minute`, and `span` says how long it is. A span overlapping the window is read whole;
-- callers clip it by its seconds inside the window.
DROP FUNCTION ledger.card_activity(text[], text[], timestamptz, timestamptz);
CREATE FUNCTION ledger.card_activity(p_clusters text[], p_gpu_uuids text[], w_start timestamptz, w_end timestamptz)
    RETURNS TABLE (cluster text, gpu_uuid text, scope text, scope_key text, minute timestamptz,
                   act double precision, metric text, util double precision, span interval)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
SELECT u.cluster, u.gpu_uuid, u.scope, u.scope_key, u.at,
       coalesce(max(u.level) FILTER (WHERE u.field = 'SM_ACTIVE'),
                max(u.level) FILTER (WHERE u.field = 'GR_ENGINE_ACTIVE'),
                max(u.level) FILTER (WHERE u.field = 'GPU_UTIL')),
       CASE WHEN bool_or(u.field = 'SM_ACTIVE') THEN 'SM_ACTIVE'
            WHEN bool_or(u.field = 'GR_ENGINE_ACTIVE') THEN 'GR_ENGINE_ACTIVE'
            ELSE 'GPU_UTIL' END,
       max(u.level) FILTER (WHERE u.field = 'GPU_UTIL'),
       u.span
FROM ledger.usage_rollup u
WHERE u.cluster = ANY (p_clusters) AND u.gpu_uuid = ANY (p_gpu_uuids)
  AND u.at >= date_trunc('hour', w_start) AND u.at + u.span > w_start AND u.at < w_end
  AND u.scope IN ('DEVICE', 'MIG_INSTANCE') AND u.field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL')
GROUP BY u.cluster, u.gpu_uuid, u.scope, u.scope_key, u.at, u.span
$$;
