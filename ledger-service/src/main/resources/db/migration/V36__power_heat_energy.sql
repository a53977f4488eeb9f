-- The readings of the cards' counters (the energy since the driver loaded, TOTAL_ENERGY_MJ, and the time held back by
-- the power limit and by heat, POWER_VIOLATION_NS and THERMAL_VIOLATION_NS), per card, field and minute: `millis` the
-- milliseconds into the minute of each reading (one per second at most), `vals` the readings, in time order. A
-- counter is never summed or averaged: the ledger derives its increase per minute from consecutive readings (resets
-- counted as Prometheus counts them) into usage_minute as ENERGY_J, POWER_VIOLATION_S and THERMAL_VIOLATION_S, where
-- the usage reads and the hour folding take them as any other series. Daily partitions are created as readings
-- arrive and dropped with the day's minute partition, once folded into hours.
CREATE TABLE usage_counter_minute (
    cluster  text               NOT NULL,
    gpu_uuid text               NOT NULL,
    field    text               NOT NULL,
    minute   timestamptz        NOT NULL,
    millis   integer[]          NOT NULL,
    vals     double precision[] NOT NULL,
    PRIMARY KEY (cluster, gpu_uuid, field, minute),
    CHECK (cardinality(millis) = cardinality(vals))
) PARTITION BY RANGE (minute);

-- The energy of the cards named by (p_clusters, p_gpu_uuids) per span of [w_start, w_end) (a minute, or an hour before
-- the minute retention), as the card's mean power over the span in W: from its energy counter where the ledger derived
-- one (ENERGY_J, whose minute mean is joules per covered second), else its POWER_W, else the mean of its MIG
-- instances' copies of POWER_W (an exporter in MIG mode may print the card's power on its instances only). `source`
-- says which: ENERGY_COUNTER or POWER_INTEGRAL. A span's energy is its power times its seconds, as used hours take a
-- span's activity over all of it; an hour's level counts its unmeasured minutes as nothing.
CREATE FUNCTION ledger.card_energy(p_clusters text[], p_gpu_uuids text[], w_start timestamptz, w_end timestamptz)
    RETURNS TABLE (cluster text, gpu_uuid text, minute timestamptz, span interval, watts double precision, source text)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
SELECT u.cluster, u.gpu_uuid, u.at, u.span,
       coalesce(max(u.level) FILTER (WHERE u.field = 'ENERGY_J'),
                max(u.level) FILTER (WHERE u.field = 'POWER_W' AND u.scope = 'DEVICE'),
                avg(u.level) FILTER (WHERE u.field = 'POWER_W' AND u.scope = 'MIG_INSTANCE')),
       CASE WHEN bool_or(u.field = 'ENERGY_J') THEN 'ENERGY_COUNTER' ELSE 'POWER_INTEGRAL' END
FROM ledger.usage_rollup u
WHERE u.cluster = ANY (p_clusters) AND u.gpu_uuid = ANY (p_gpu_uuids)
  AND u.at >= date_trunc('hour', w_start) AND u.at + u.span > w_start AND u.at < w_end
  AND u.scope IN ('DEVICE', 'MIG_INSTANCE') AND u.field IN ('ENERGY_J', 'POWER_W')
GROUP BY u.cluster, u.gpu_uuid, u.at, u.span
$$;
